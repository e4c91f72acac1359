import { RequestContext, type MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { BALANCING_QUEUE, type BalanceSiteJob } from '../core/balancing/balancing.commands.js';
import { BILL_RUN_QUEUE, type BillRunJob } from '../core/billing/bill-runs.commands.js';
import type { BillRunsService } from '../core/billing/bill-runs.service.js';
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

/** Runs `work` every `seconds`, each run in its own unit of work; failures are logged, not fatal. */
function every(seconds: number, what: string, deps: WorkerDependencies, work: () => Promise<void>): NodeJS.Timeout {
  const run = () => RequestContext.create(deps.orm.em, work).catch((error: unknown) => deps.logger.error({ err: error }, `${what} failed`));
  void run();
  const timer = setInterval(run, seconds * 1000);
  timer.unref();
  return timer;
}

/**
 * The worker: balancing, webhook and bill run jobs from the durable queue, each in its own unit of work, and
 * sweeps that enqueue what a commit left to do (sites with pending ranges, deliveries due).
 */
export async function startWorker(deps: WorkerDependencies): Promise<{ stop(): void }> {
  const { orm, queue, balancing, webhooks, billRuns, config, logger } = deps;
  await queue.work<BalanceSiteJob>(BALANCING_QUEUE, async (job) => {
    const started = Date.now();
    await RequestContext.create(orm.em, () => balancing.balanceSite(job));
    logger.info({ siteId: job.siteId, durationMs: Date.now() - started }, 'site balanced');
  });
  // Several endpoints at once, so that a slow receiver holds up only its own deliveries.
  await queue.work<DeliverWebhooksJob>(WEBHOOK_QUEUE, (job) => RequestContext.create(orm.em, () => webhooks.deliver(job)), config.WEBHOOK_CONCURRENCY);
  // A lease on each run keeps one worker on it; a crashed worker's run is resumed by the sweep.
  await queue.work<BillRunJob>(BILL_RUN_QUEUE, (job) => RequestContext.create(orm.em, () => billRuns.work(job)), 2);
  const timers = [
    every(config.BALANCING_SWEEP_SECONDS, 'balancing sweep', deps, () => balancing.scheduleDirtySites()),
    every(config.WEBHOOK_POLL_SECONDS, 'webhook sweep', deps, () => webhooks.scheduleDue()),
    every(config.BILL_RUN_SWEEP_SECONDS, 'bill run sweep', deps, () => billRuns.scheduleUnfinished()),
  ];
  return { stop: () => timers.forEach(clearInterval) };
}
