import type { MikroORM } from '@mikro-orm/postgresql';
import { inRequestScope } from '../core/persistence/request-scope.js';
import type { Logger } from 'pino';
import { BALANCING_QUEUE, type BalanceSiteJob } from '../core/balancing/balancing.commands.js';
import { BILL_RUN_QUEUE, type BillRunJob } from '../core/billing/bill-runs/bill-runs.commands.js';
import type { BillRunsService } from '../core/billing/bill-runs/bill-runs.service.js';
import type { BalancingService } from '../core/balancing/balancing.service.js';
import type { PgBossQueue, QueueDefinition } from '../core/queue/pg-boss.queue.js';
import { WEBHOOK_QUEUE, type DeliverWebhooksJob, type WebhookDispatcher } from '../core/webhooks/webhook-dispatcher.js';
import type { Config } from './config.js';

export const QUEUES: QueueDefinition[] = [
  { name: BALANCING_QUEUE, policy: 'stately' },
  { name: WEBHOOK_QUEUE, policy: 'short' },
  { name: BILL_RUN_QUEUE, policy: 'short' },
];

export interface WorkerDependencies {
  orm: MikroORM;
  queue: PgBossQueue;
  balancing: BalancingService;
  webhooks: WebhookDispatcher;
  billRuns: BillRunsService;
  config: Config;
  logger: Logger;
}

/**
 * Runs `work` now and every `seconds`. `stop` ends the timer and waits for the runs in progress, so
 * that no sweep is still reading when the database closes (a shutdown would then fail).
 */
function every(seconds: number, what: string, deps: WorkerDependencies, work: () => Promise<void>): { stop(): Promise<void> } {
  const running = new Set<Promise<void>>();
  const run = () => {
    const pending = inRequestScope(deps.orm.em, work).catch((error: unknown) => deps.logger.error({ err: error }, `${what} failed`));
    running.add(pending);
    void pending.then(() => running.delete(pending));
  };
  run();
  const timer = setInterval(run, seconds * 1000);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await Promise.all(running);
    },
  };
}

/** Resolves once `signal` aborts; never without one. */
function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) resolve();
    signal?.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * Runs a job in its own unit of work; a failure is logged with the job's ids and rethrown, so the
 * queue retries it (with backoff, up to JOB_RETRY_LIMIT) and the operator sees every attempt.
 */
async function reported(deps: WorkerDependencies, what: string, job: object, work: () => Promise<unknown>): Promise<void> {
  try {
    await inRequestScope(deps.orm.em, work);
  } catch (error) {
    deps.logger.error({ err: error, job, retryLimit: deps.config.JOB_RETRY_LIMIT }, `${what} failed; the queue retries it`);
    throw error;
  }
}

/**
 * The worker: balancing, webhook and bill run jobs from the durable queue, each in its own unit of work, and
 * sweeps that enqueue what a commit left to do (sites with pending ranges, deliveries due).
 */
export async function startWorker(deps: WorkerDependencies, shutdown?: AbortSignal): Promise<{ stop(): Promise<void> }> {
  const { queue, balancing, webhooks, billRuns, config, logger } = deps;
  // The render threads load the renderer and warm it up first (some seconds of CPU each, see
  // PDF_RENDER_WARMUP_DOCUMENTS): a job taken meanwhile, such as a site's balancing after a
  // deployment, would share the cores with them. Idle, they do not keep the process alive. A
  // shutdown meanwhile does not wait for them: the worker takes no job, and closing the renderer
  // ends the threads.
  logger.info({ renderThreads: config.PDF_RENDER_THREADS, warmUpDocuments: config.PDF_RENDER_WARMUP_DOCUMENTS }, 'worker starting: render threads warming up');
  await Promise.race([billRuns.prepare(), aborted(shutdown)]);
  if (shutdown?.aborted) {
    logger.info('worker not started: shutting down');
    return { stop: async () => undefined };
  }
  await queue.work<BalanceSiteJob>(BALANCING_QUEUE, async (job) => {
    const started = Date.now();
    await reported(deps, 'balancing', job, () => balancing.balanceSite(job));
    logger.info({ accountId: job.accountId, siteId: job.siteId, durationMs: Date.now() - started }, 'site balanced');
  });
  // Several endpoints at once, so that a slow receiver holds up only its own deliveries.
  await queue.work<DeliverWebhooksJob>(WEBHOOK_QUEUE, (job) => reported(deps, 'webhook delivery', job, () => webhooks.deliver(job)), config.WEBHOOK_CONCURRENCY);
  // A lease on each run keeps one worker on it; a crashed worker's run is resumed by the sweep.
  await queue.work<BillRunJob>(BILL_RUN_QUEUE, (job) => reported(deps, 'bill run', job, () => billRuns.work(job)), 2);
  const sweeps = [
    every(config.BALANCING_SWEEP_SECONDS, 'balancing sweep', deps, () => balancing.scheduleDirtySites()),
    every(config.WEBHOOK_POLL_SECONDS, 'webhook sweep', deps, () => webhooks.scheduleDue()),
    every(config.BILL_RUN_SWEEP_SECONDS, 'bill run sweep', deps, () => billRuns.scheduleUnfinished()),
  ];
  logger.info({ queues: QUEUES.map((q) => q.name) }, 'worker started');
  return {
    stop: async () => {
      await Promise.all(sweeps.map((sweep) => sweep.stop()));
      logger.info('worker stopped');
    },
  };
}
