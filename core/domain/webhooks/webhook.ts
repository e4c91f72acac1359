export const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** A partner's receiver of events. Secrets are stored encrypted (see core/webhooks/secret-box.ts). */
export class WebhookEndpoint {
  id!: string;
  accountId!: string;
  url!: string;
  /** Event types, or `*` for all. */
  events!: string[];
  /** Extra headers sent with every delivery. */
  headers!: Record<string, string>;
  enabled!: boolean;
  secret!: string;
  /** The secret before the last rotation, valid until `previousSecretExpiresAt`. */
  previousSecret!: string | null;
  previousSecretExpiresAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;
}

export interface DeliveryAttempt {
  attemptedAt: string;
  /** Null when no response came (timeout, refused connection, blocked target). */
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** One event for one endpoint: at least once, retried with backoff, then `failed`. */
export class WebhookDelivery {
  id!: string;
  accountId!: string;
  endpointId!: string;
  eventId!: string;
  eventType!: string;
  entityId!: string;
  eventSequence!: string;
  state!: DeliveryState;
  attempts!: DeliveryAttempt[];
  nextAttemptAt!: Date | null;
  deliveredAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;

  /** Sent again now, whatever it came to before: a retry, or a replay of a delivered one. */
  sendAgain(now: Date): void {
    this.state = 'pending';
    this.nextAttemptAt = now;
    this.updatedAt = now;
  }
}

/**
 * The deliveries to send now, in event order, grouped so that deliveries of one entity go out one
 * after the other and a failure holds back the later ones of that entity only.
 */
export function byEntity<T extends { entityId: string }>(deliveries: readonly T[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const delivery of deliveries) {
    const group = groups.get(delivery.entityId);
    if (group) group.push(delivery);
    else groups.set(delivery.entityId, [delivery]);
  }
  return [...groups.values()];
}
