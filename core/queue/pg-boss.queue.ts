import { PgBoss } from 'pg-boss';
import type { JobHandler, JobQueue } from './job-queue.js';

/** A status read, not an audit: the newest jobs of a key are enough to see what is going on. */
const MAX_COUNTED_JOBS = 10_000;

export interface QueueSettings {
  connectionString: string;
  /** Backstop poll when no NOTIFY wakes the worker (pg-boss minimum 0.5 s). */
  pollSeconds: number;
  retryLimit: number;
  retryDelaySeconds: number;
}

/**
 * `stately`: one job waiting and one running per key (balancing: per site). `short`: one waiting per
 * key, the handler keeps running ones apart itself (webhooks: a lease per endpoint).
 */
export interface QueueDefinition {
  name: string;
  policy: 'stately' | 'short';
}

/**
 * pg-boss on the service's own PostgreSQL (its own schema). Queues are `stately` per key: one job
 * waiting and one running per site, which is both the coalescing and the per-site exclusivity.
 * Failures retry with exponential backoff and end in pg-boss's `failed` state.
 */
export class PgBossQueue implements JobQueue {
  private readonly boss: PgBoss;
  private readonly workers = new Map<string, string>();
  private readonly ready = new Set<string>();

  constructor(private readonly settings: QueueSettings) {
    this.boss = new PgBoss({ connectionString: settings.connectionString, max: 4, useListenNotify: true, schedule: false });
    this.boss.on('error', () => {
      // Connection hiccups are retried by pg-boss itself; the job states stay authoritative.
    });
  }

  async start(queues: readonly QueueDefinition[]): Promise<void> {
    await this.boss.start();
    for (const { name, policy } of queues) {
      const options = { retryLimit: this.settings.retryLimit, retryDelay: this.settings.retryDelaySeconds, retryBackoff: true, notify: true };
      // The policy is fixed at creation; the timers follow the configuration at every start.
      if (await this.boss.getQueue(name)) await this.boss.updateQueue(name, options);
      else await this.boss.createQueue(name, { ...options, policy });
      this.ready.add(name);
    }
  }

  async enqueue(queue: string, data: object, key: string): Promise<void> {
    await this.boss.send(queue, data, { singletonKey: key });
    const worker = this.workers.get(queue);
    if (worker) this.boss.notifyWorker(worker);
  }

  /** The jobs pg-boss still keeps (completed ones until its retention ends), counted by state. */
  async jobStates(queue: string, key: string): Promise<Record<string, number>> {
    if (!this.ready.has(queue)) return {};
    const counts: Record<string, number> = {};
    for (const job of await this.boss.findJobs(queue, { key, limit: MAX_COUNTED_JOBS })) counts[job.state] = (counts[job.state] ?? 0) + 1;
    return counts;
  }

  /** `concurrency` jobs of the queue at once in this process (of different keys). */
  async work<T extends object>(queue: string, handler: JobHandler<T>, concurrency = 1): Promise<void> {
    const options = { batchSize: 1, localConcurrency: concurrency, pollingIntervalSeconds: this.settings.pollSeconds, notifyPollingIntervalSeconds: this.settings.pollSeconds };
    const id = await this.boss.work<T>(queue, options, async ([job]) => {
      if (job) await handler(job.data);
    });
    this.workers.set(queue, id);
  }

  async stop(): Promise<void> {
    if (this.ready.size > 0) await this.boss.stop({ graceful: true, timeout: 10_000 });
  }
}
