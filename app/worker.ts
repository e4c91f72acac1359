import { RequestContext, type MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { BALANCING_QUEUE, type BalanceSiteJob } from '../core/balancing/balancing.commands.js';
import type { BalancingService } from '../core/balancing/balancing.service.js';
import type { PgBossQueue } from '../core/queue/pg-boss.queue.js';
import type { Config } from './config.js';

export const QUEUES = [BALANCING_QUEUE];

/**
 * The worker: takes balancing jobs from the durable queue, each in its own unit of work, and
 * sweeps for sites whose job got lost between a commit and its enqueue.
 */
export async function startWorker(deps: { orm: MikroORM; queue: PgBossQueue; balancing: BalancingService; config: Config; logger: Logger }): Promise<{ stop(): void }> {
  const { orm, queue, balancing, config, logger } = deps;
  await queue.work<BalanceSiteJob>(BALANCING_QUEUE, async (job) => {
    const started = Date.now();
    await RequestContext.create(orm.em, () => balancing.balanceSite(job));
    logger.info({ siteId: job.siteId, durationMs: Date.now() - started }, 'site balanced');
  });
  const sweep = () =>
    RequestContext.create(orm.em, () => balancing.scheduleDirtySites()).catch((error: unknown) => logger.error({ err: error }, 'balancing sweep failed'));
  await sweep();
  const timer = setInterval(sweep, config.BALANCING_SWEEP_SECONDS * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
