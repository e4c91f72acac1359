import type { DomainEvent } from '../domain/events/event.js';
import type { DeliveryAttempt, DeliveryState, WebhookDelivery, WebhookEndpoint } from '../domain/webhooks/webhook.js';
import type { Page, PageQuery } from '../pagination.js';
import type { ResourceRepository } from '../resource.repository.js';

export interface WebhookEndpointRepository extends ResourceRepository<WebhookEndpoint> {
  /** Staged; its delivery log goes with it (foreign keys cascade), the events stay. */
  remove(endpoint: WebhookEndpoint): void;
  /** Any account's endpoint: for the worker, which has no caller. */
  findAnyById(id: string): Promise<WebhookEndpoint | null>;
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
  /** Endpoints with deliveries due at `now`, of every account (the worker's sweep). */
  endpointsWithDueDeliveries(now: Date): Promise<string[]>;
  /**
   * Up to `limit` due deliveries of the endpoint in event order, leaving out those whose entity
   * has an earlier delivery still waiting for its retry.
   */
  due(endpointId: string, now: Date, limit: number): Promise<DueDelivery[]>;
  /** Appends the attempts and sets the outcomes, with one statement. */
  recordAttempts(results: readonly AttemptResult[], now: Date): Promise<void>;
  /**
   * Takes the endpoint's delivery lease (one sender per endpoint keeps per-entity order across
   * workers); false when another holder's lease has not expired.
   */
  takeLease(endpointId: string, token: string, until: Date, now: Date): Promise<boolean>;
  releaseLease(endpointId: string, token: string): Promise<void>;
}
