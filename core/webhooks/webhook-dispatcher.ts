import { randomUUID, type KeyObject } from 'node:crypto';
import type { Clock } from '../clock.js';
import { presentEvent } from '../events/events.service.js';
import { retryDelaySeconds, type RetrySchedule } from '../domain/webhooks/retry-schedule.js';
import { signatureHeader, signingKey } from '../domain/webhooks/signature.js';
import { byEntity, type WebhookEndpoint } from '../domain/webhooks/webhook.js';
import type { JobQueue } from '../queue/job-queue.js';
import type { SecretBox } from './secret-box.js';
import type { WebhookSender } from './http-sender.js';
import type { AttemptResult, DueDelivery, EndpointKey, WebhookDeliveryRepository, WebhookEndpointRepository } from './webhooks.repository.js';

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

/** What every request of a round shares: where it goes, the endpoint's headers and the signing keys. */
interface RoundTarget {
  url: string;
  headers: Record<string, string>;
  keys: KeyObject[];
}

/** A round's attempts, and the entities it holds back: those whose delivery did not get through. */
interface RoundOutcome {
  results: AttemptResult[];
  held: Set<string>;
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
   * The sweep: a job for every endpoint with deliveries due and no worker on it, naming its account
   * (coalesced per endpoint by the queue). Whatever is due and has no job yet, or whose job was
   * dropped, is queued again by the next sweep.
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
    const key = { accountId: job.accountId, endpointId: job.endpointId };
    const token = randomUUID();
    if (!(await this.deps.deliveries.takeLease(key.accountId, key.endpointId, token, this.leaseEnd(), this.deps.clock.now()))) return;
    try {
      await this.rounds(key, token);
    } finally {
      await this.deps.deliveries.releaseLease(key.accountId, key.endpointId, token);
    }
  }

  /**
   * Rounds until nothing is due, the endpoint is disabled, the lease is lost or it is time to hand
   * over. Each round renews the lease and reads the endpoint afresh before it sends. The next round
   * is read while this one is in flight (leaving this one out, and once this one is done the
   * entities it held back), and this round's attempts are recorded while the next one is in flight.
   * A renewal fails once another worker has taken the endpoint, so a round read ahead is only sent
   * by a worker that held the endpoint all along. Records go in round order and stop at the first
   * that fails, so what is sent again after a failure or a crash is a tail of what was sent, in
   * order; a delivery stays pending until its attempt is recorded (at least once).
   */
  private async rounds({ accountId, endpointId }: EndpointKey, token: string): Promise<void> {
    const { deliveries, endpoints, clock, settings } = this.deps;
    const handOverAt = clock.now().getTime() + (settings.leaseSeconds * 1000) / 2;
    const due = (inFlight: readonly string[]) => deliveries.due(accountId, endpointId, clock.now(), settings.batchSize, inFlight);
    let reading = due([]);
    let readAhead = false;
    let recording: Promise<void> = Promise.resolve();
    let held: ReadonlySet<string> = new Set();
    let renew = false;
    try {
      for (;;) {
        const [leased, endpoint, read] = await Promise.all([
          renew ? deliveries.renewLease(accountId, endpointId, token, this.leaseEnd()) : true,
          endpoints.findFresh(accountId, endpointId),
          reading,
        ]);
        renew = true;
        if (!leased || !endpoint?.enabled || clock.now().getTime() >= handOverAt) break;
        if (read.length === 0) {
          // What came due while the last round was in flight is read once more, after its record.
          if (!readAhead) break;
          reading = recording.then(() => due([]));
          reading.catch(() => undefined);
          readAhead = false;
          held = new Set();
          continue;
        }
        const round = read.filter((item) => !held.has(item.delivery.entityId));
        reading = recording.then(() => due(round.map((item) => item.delivery.id)));
        // Awaited in the next round or at the end: a failure while this round is in flight must not be an unhandled rejection.
        reading.catch(() => undefined);
        readAhead = true;
        const { results, held: heldBack } = await this.sendAll(this.target(endpoint), round);
        const sentAt = clock.now();
        held = heldBack;
        recording = recording.then(() => deliveries.recordAttempts(accountId, results, sentAt));
        recording.catch(() => undefined);
      }
    } finally {
      // No statement of the job outlives its lease.
      await Promise.allSettled([reading, recording]);
    }
    await recording;
  }

  /** Entities in parallel (up to `concurrency`), each entity's deliveries in order until one fails. */
  private async sendAll(target: RoundTarget, due: readonly DueDelivery[]): Promise<RoundOutcome> {
    const groups = byEntity(due.map((item) => ({ ...item, entityId: item.delivery.entityId })));
    const outcome: RoundOutcome = { results: [], held: new Set() };
    let next = 0;
    const lane = async () => {
      while (next < groups.length) {
        const group = groups[next++]!;
        for (const item of group) {
          const result = await this.attempt(target, item);
          outcome.results.push(result);
          if (result.state !== 'delivered') {
            outcome.held.add(item.entityId);
            break;
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.deps.settings.concurrency, groups.length) }, lane));
    return outcome;
  }

  private async attempt(target: RoundTarget, { delivery, event }: DueDelivery): Promise<AttemptResult> {
    const body = JSON.stringify(presentEvent(event));
    const now = this.deps.clock.now();
    const timestamp = Math.floor(now.getTime() / 1000);
    const response = await this.deps.sender.send({
      url: target.url,
      body,
      headers: {
        ...target.headers,
        'webhook-id': event.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(target.keys, event.id, timestamp, body),
      },
    });
    const attempt = { attemptedAt: now.toISOString(), statusCode: response.statusCode, durationMs: response.durationMs, error: response.error };
    if (response.error === null) return { deliveryId: delivery.id, attempt, state: 'delivered', nextAttemptAt: null };
    const delay = retryDelaySeconds(this.deps.settings.retry, delivery.attemptCount + 1, (this.deps.random ?? Math.random)());
    return delay === null
      ? { deliveryId: delivery.id, attempt, state: 'failed', nextAttemptAt: null }
      : { deliveryId: delivery.id, attempt, state: 'pending', nextAttemptAt: new Date(this.deps.clock.now().getTime() + delay * 1000) };
  }

  /** The endpoint as one round sends to it: secrets opened and keyed once, not per delivery. */
  private target(endpoint: WebhookEndpoint): RoundTarget {
    const headers = { ...endpoint.headers, 'content-type': 'application/json', 'user-agent': 'ebbs-webhooks/1' };
    return { url: endpoint.url, headers, keys: this.validSecrets(endpoint).map(signingKey) };
  }

  private validSecrets(endpoint: WebhookEndpoint): string[] {
    const current = this.deps.secrets.open(endpoint.secret);
    const previousValid = endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > this.deps.clock.now();
    return previousValid ? [current, this.deps.secrets.open(endpoint.previousSecret!)] : [current];
  }

  private leaseEnd(): Date {
    return new Date(this.deps.clock.now().getTime() + this.deps.settings.leaseSeconds * 1000);
  }
}
