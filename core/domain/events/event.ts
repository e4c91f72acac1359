const changes = <E extends string>(entity: E) => [`${entity}.created`, `${entity}.updated`, `${entity}.deleted`] as const;

/** Every event type partners can subscribe to. */
export const EVENT_TYPES = [
  ...changes('site'),
  ...changes('meter'),
  ...changes('customer'),
  ...changes('contract'),
  ...changes('payment_method'),
  'account.updated',
  'payment.created',
  'payment.updated',
  'balancing.completed',
  'bill_run.create_progress',
  'bill_run.create_success',
  'bill_run.create_error',
  'bill_run.complete_progress',
  'bill_run.complete_success',
  'bill_run.complete_error',
  'bill_run.deleted',
  'invoice.issued',
  'invoice.paid',
  'invoice.reopened',
  'invoice.cancelled',
  'payment_run.created',
  'payment_run.closed',
  'payment_run.cancelled',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** An outbox row: written in the transaction of the change it reports. */
export class DomainEvent {
  id!: string;
  accountId!: string;
  /** Insertion order: partners and deliveries follow it. */
  sequence!: string;
  type!: EventType;
  /** Null for events of the worker. */
  userId!: string | null;
  /** The sites the entity belongs to; [] when none. */
  siteIds!: string[];
  /** The entity the event is about; deliveries of one entity keep their order. */
  entityId!: string;
  /** The entity as the REST API shows it. */
  data!: Record<string, unknown>;
  createdAt!: Date;
}
