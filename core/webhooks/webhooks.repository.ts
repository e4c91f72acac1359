import type { DomainEvent } from '../domain/events/event.js';
import type { DeliveryAttempt, DeliveryState, WebhookDelivery, WebhookEndpoint } from '../domain/webhooks/webhook.js';
import type { Page, PageQuery } from '../pagination.js';
import type { ResourceRepository } from '../resource.repository.js';

export interface WebhookEndpointRepository extends ResourceRepository<WebhookEndpoint> {
  /** Staged; its delivery log goes with it (foreign keys cascade), the events stay. */
  remove(endpoint: WebhookEndpoint): void;
  /**
   * The endpoint as committed now, past the unit of work's identity map: the worker reads it each
   * round, so that a disabled endpoint or a rotated secret takes effect at once.
   */
  findFresh(accountId: string, id: string): Promise<WebhookEndpoint | null>;
}

/** An endpoint named with its account, as the worker's sweep finds it and its jobs carry it. */
export interface EndpointKey {
  accountId: string;
  endpointId: string;
}

export interface DueDelivery {
  delivery: Pick<WebhookDelivery, 'id' | 'entityId'> & { attemptCount: number };
  event: DomainEvent;
}

export interface AttemptResult {
  deliveryId: string;
  attempt: DeliveryAttempt;
  state: DeliveryState;
  nextAttemptAt: Date | null;
}

export interface WebhookDeliveryRepository {
  findById(accountId: string, id: string): Promise<WebhookDelivery | null>;
  listForEndpoint(accountId: string, endpointId: string, filter: { state?: DeliveryState }, page: PageQuery): Promise<Page<WebhookDelivery>>;
  /**
   * Enabled endpoints with deliveries due at `now` that no worker holds (a lease live at `now`), of
   * every account, each with its account (the worker's sweep).
   */
  endpointsWithDueDeliveries(now: Date): Promise<EndpointKey[]>;
  /**
   * Up to `limit` due deliveries of the account's endpoint in event order, leaving out those whose
   * entity has an earlier delivery still waiting for its retry, and those `inFlight` (sent, their
   * attempts not yet recorded).
   */
  due(accountId: string, endpointId: string, now: Date, limit: number, inFlight?: readonly string[]): Promise<DueDelivery[]>;
  /** Appends the attempts to the account's deliveries and sets the outcomes, with one statement. */
  recordAttempts(accountId: string, results: readonly AttemptResult[], now: Date): Promise<void>;
  /**
   * Takes the delivery lease of the account's endpoint (one sender per endpoint keeps per-entity
   * order across workers); false when another holder's lease has not expired, or when the account
   * has no such endpoint.
   */
  takeLease(accountId: string, endpointId: string, token: string, until: Date, now: Date): Promise<boolean>;
  /**
   * Extends the lease to `until` while it is still this holder's (its token, expired or not);
   * false once another has taken it or it is gone: then someone else may have sent meanwhile.
   */
  renewLease(accountId: string, endpointId: string, token: string, until: Date): Promise<boolean>;
  releaseLease(accountId: string, endpointId: string, token: string): Promise<void>;
}
