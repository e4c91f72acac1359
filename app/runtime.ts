import type { MikroORM } from '@mikro-orm/postgresql';
import { migrate, openOrm, type OrmOptions } from '../core/persistence/orm.js';
import { PgBossQueue } from '../core/queue/pg-boss.queue.js';
import { closeInOrder } from './close-in-order.js';
import type { Config } from './config.js';
import { ensureExternalDatabase, openDatabase, resolveSecret, underMigrationLock, type Database } from './database.js';

export interface Runtime {
  config: Config;
  database: Database;
  orm: MikroORM;
  /** Started by the server or worker; the CLI never sends jobs. */
  queue: PgBossQueue;
  jwtSecret: string;
  /** Encrypts webhook signing secrets at rest. */
  webhookKey: string;
  /** Work to do when the runtime closes, before the queue and the database (e.g. ending render threads). */
  onClose(work: () => Promise<void>): void;
  close(): Promise<void>;
}

export interface RuntimeOptions extends Pick<OrmOptions, 'onQuery' | 'schemaMode'> {
  /** Create the external database when it does not exist (`migrate --create-database` only). */
  createDatabase?: boolean;
}

/**
 * Opens the database (external, which must exist, or embedded), applies pending migrations (once
 * across processes starting together) and resolves secrets.
 */
export async function openRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const { createDatabase = false, ...hooks } = options;
  if (config.DATABASE_URL) await ensureExternalDatabase(config.DATABASE_URL, createDatabase);
  const database = await openDatabase(config);
  try {
    const orm = await openOrm({ clientUrl: database.url, poolSize: config.DB_POOL_SIZE, ...hooks });
    if (config.DATABASE_URL) await underMigrationLock(database.url, () => migrate(orm));
    else await migrate(orm);
    const jwtSecret = await resolveSecret(config, config.JWT_SECRET, 'jwt-secret');
    const webhookKey = await resolveSecret(config, config.WEBHOOK_SECRET_KEY, 'webhook-secret-key');
    const queue = new PgBossQueue({
      connectionString: database.url,
      pollSeconds: config.QUEUE_POLL_SECONDS,
      retryLimit: config.JOB_RETRY_LIMIT,
      retryDelaySeconds: config.JOB_RETRY_DELAY_SECONDS,
    });
    const closing: Array<() => Promise<void>> = [];
    return {
      config,
      database,
      orm,
      queue,
      jwtSecret,
      webhookKey,
      onClose: (work) => void closing.push(work),
      close: () =>
        closeInOrder([
          async () => void (await Promise.all(closing.map((work) => work()))),
          () => queue.stop(),
          () => orm.close(),
          () => database.close(),
        ]),
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
