import type { MikroORM } from '@mikro-orm/postgresql';
import { migrate, openOrm, type OrmOptions } from '../core/persistence/orm.js';
import { PgBossQueue } from '../core/queue/pg-boss.queue.js';
import type { Config } from './config.js';
import { openDatabase, resolveSecret, type Database } from './database.js';

export interface Runtime {
  config: Config;
  database: Database;
  orm: MikroORM;
  /** Started by the server or worker; the CLI never sends jobs. */
  queue: PgBossQueue;
  jwtSecret: string;
  /** Encrypts webhook signing secrets at rest. */
  webhookKey: string;
  close(): Promise<void>;
}

/** Opens the database (external or embedded), applies pending migrations and resolves secrets. */
export async function openRuntime(config: Config, hooks: Pick<OrmOptions, 'onQuery'> = {}): Promise<Runtime> {
  const database = await openDatabase(config);
  try {
    const orm = await openOrm({ clientUrl: database.url, poolSize: config.DB_POOL_SIZE, ...hooks });
    await migrate(orm);
    const jwtSecret = await resolveSecret(config, config.JWT_SECRET, 'jwt-secret');
    const webhookKey = await resolveSecret(config, config.WEBHOOK_SECRET_KEY, 'webhook-secret-key');
    const queue = new PgBossQueue({
      connectionString: database.url,
      pollSeconds: config.QUEUE_POLL_SECONDS,
      retryLimit: config.JOB_RETRY_LIMIT,
      retryDelaySeconds: config.JOB_RETRY_DELAY_SECONDS,
    });
    return {
      config,
      database,
      orm,
      queue,
      jwtSecret,
      webhookKey,
      close: async () => {
        await queue.stop();
        await orm.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
