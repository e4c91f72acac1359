import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import { presentEvent } from '../events/events.service.js';
import { retryDelaySeconds, type RetrySchedule } from '../domain/webhooks/retry-schedule.js';
import { signatureHeader } from '../domain/webhooks/signature.js';
import { byEntity, type WebhookEndpoint } from '../domain/webhooks/webhook.js';
import type { JobQueue } from '../queue/job-queue.js';
import type { SecretBox } from './secret-box.js';
import type { WebhookSender } from './http-sender.js';
import type { AttemptResult, DueDelivery, WebhookDeliveryRepository, WebhookEndpointRepository } from './webhooks.repository.js';

export const WEBHOOK_QUEUE = 'deliver-webhooks';

export interface DeliverWebhooksJob {
  /**
   * The endpoint's account: every statement of the job is routed by it. Optional only because a
   * job queued before the payload named its account has none; `deliver` drops such a job (the
   * sweep queues its endpoint again, with the account).
   */
  accountId?: string;
  endpointId: string;
}

export interface DispatcherSettings {
  retry: RetrySchedule;
  /** Deliveries read per round; they go out concurrently, one at a time per entity. */
  batchSize: number;
  /** Requests in flight per endpoint. */
  concurrency: number;
  /** How long one worker holds an endpoint before another may take over (after a crash); a job hands over after half of it. */
  leaseSeconds: number;
}

export interface DispatcherDependencies {
  deliveries: WebhookDeliveryRepository;
  endpoints: WebhookEndpointRepository;
  secrets: SecretBox;
  sender: WebhookSender;
  queue: JobQueue;
  clock: Clock;
  settings: DispatcherSettings;
  random?: () => number;
}

/**
 * The delivery worker: one job per endpoint at a time (a lease on the endpoint),
 * so a slow or dead receiver holds up only its own deliveries; within an endpoint, deliveries of
 * one entity go out in event order and a failed one holds back only the later ones of its entity.
 * At least once: a delivery stays pending until an attempt is recorded, so a crash resends.
 */
export class WebhookDispatcher {
  constructor(private readonly deps: DispatcherDependencies) {}

  /**
   * The sweep: a job for every endpoint with deliveries due, naming its account (coalesced per
   * endpoint by the queue). Whatever is due and has no job yet, or whose job was dropped, is queued
   * again by the next sweep.
   */
  async scheduleDue(): Promise<void> {
    for (const { accountId, endpointId } of await this.deps.deliveries.endpointsWithDueDeliveries(this.deps.clock.now())) {
      await this.deps.queue.enqueue(WEBHOOK_QUEUE, { accountId, endpointId } satisfies DeliverWebhooksJob, endpointId);
    }
  }

  async deliver(job: DeliverWebhooksJob): Promise<void> {
    // A job queued before the payload named its account: dropped, which loses nothing. It only ever
    // stood for deliveries that are pending with next_attempt_at <= now (the sweep's, and a retry's:
    // sendAgain sets both before the job is queued), and those stay so until an attempt is
    // recorded, so the next sweep queues the endpoint again, with its account.
    if (!job.accountId) return;
    const { accountId, endpointId } = job;
    const { deliveries, clock, settings } = this.deps;
    const token = randomUUID();
    const lease = () => new Date(clock.now().getTime() + settings.leaseSeconds * 1000);
    if (!(await deliveries.takeLease(accountId, endpointId, token, lease(), clock.now()))) return;
    const handOverAt = clock.now().getTime() + (settings.leaseSeconds * 1000) / 2;
    try {
      while (clock.now().getTime() < handOverAt) {
        const endpoint = await this.deps.endpoints.findFresh(accountId, endpointId);
        if (!endpoint?.enabled) return;
        const due = await deliveries.due(accountId, endpointId, clock.now(), settings.batchSize);
        if (due.length === 0) return;
        const results = await this.sendAll(endpoint, due);
        await deliveries.recordAttempts(accountId, results, clock.now());
        if (due.length < settings.batchSize && results.every((r) => r.state !== 'delivered')) return;
        if (!(await deliveries.takeLease(accountId, endpointId, token, lease(), clock.now()))) return;
      }
    } finally {
      await deliveries.releaseLease(accountId, endpointId, token);
    }
  }

  /** Entities in parallel (up to `concurrency`), each entity's deliveries in order until one fails. */
  private async sendAll(endpoint: WebhookEndpoint, due: readonly DueDelivery[]): Promise<AttemptResult[]> {
    const secrets = this.validSecrets(endpoint);
    const groups = byEntity(due.map((item) => ({ ...item, entityId: item.delivery.entityId })));
    const results: AttemptResult[] = [];
    let next = 0;
    const lane = async () => {
      while (next < groups.length) {
        const group = groups[next++]!;
        for (const item of group) {
          const result = await this.attempt(endpoint, secrets, item);
          results.push(result);
          if (result.state !== 'delivered') break;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.deps.settings.concurrency, groups.length) }, lane));
    return results;
  }

  private async attempt(endpoint: WebhookEndpoint, secrets: string[], { delivery, event }: DueDelivery): Promise<AttemptResult> {
    const body = JSON.stringify(presentEvent(event));
    const now = this.deps.clock.now();
    const timestamp = Math.floor(now.getTime() / 1000);
    const response = await this.deps.sender.send({
      url: endpoint.url,
      body,
      headers: {
        ...endpoint.headers,
        'content-type': 'application/json',
        'user-agent': 'ebbs-webhooks/1',
        'webhook-id': event.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(secrets, event.id, timestamp, body),
      },
    });
    const attempt = { attemptedAt: now.toISOString(), statusCode: response.statusCode, durationMs: response.durationMs, error: response.error };
    if (response.error === null) return { deliveryId: delivery.id, attempt, state: 'delivered', nextAttemptAt: null };
    const delay = retryDelaySeconds(this.deps.settings.retry, delivery.attemptCount + 1, (this.deps.random ?? Math.random)());
    return delay === null
      ? { deliveryId: delivery.id, attempt, state: 'failed', nextAttemptAt: null }
      : { deliveryId: delivery.id, attempt, state: 'pending', nextAttemptAt: new Date(this.deps.clock.now().getTime() + delay * 1000) };
  }

  private validSecrets(endpoint: WebhookEndpoint): string[] {
    const current = this.deps.secrets.open(endpoint.secret);
    const previousValid = endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > this.deps.clock.now();
    return previousValid ? [current, this.deps.secrets.open(endpoint.previousSecret!)] : [current];
  }
}
