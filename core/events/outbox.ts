import type { Actor } from '../auth/actor.js';
import type { EventType } from '../domain/events/event.js';

export interface NewEvent {
  accountId: string;
  userId: string | null;
  type: EventType;
  /** The entity the event is about: deliveries of one entity keep their order. */
  entityId: string;
  /** The entity as the REST API shows it (or, for `balancing.completed`, the site and range). */
  data: object;
  siteIds: readonly string[];
}

/**
 * The transactional outbox: `record` writes events in the caller's unit of work, next to the change
 * they report, so a rolled-back change leaves no event and a committed one always has its event.
 */
export interface EventOutbox {
  record(events: readonly NewEvent[]): Promise<void>;
}

/** Who caused an event: the calling user, or the worker (no user). */
export function causedBy(actor: Actor): Pick<NewEvent, 'accountId' | 'userId'> {
  return { accountId: actor.accountId, userId: actor.userId };
}
