import type { MikroORM } from '@mikro-orm/postgresql';
import { migrate, openOrm, type OrmOptions } from '../core/persistence/orm.js';
import type { Config } from './config.js';
import { openDatabase, resolveJwtSecret, type Database } from './database.js';

export interface Runtime {
  config: Config;
  database: Database;
  orm: MikroORM;
  jwtSecret: string;
  close(): Promise<void>;
}

/** Opens the database (external or embedded), applies pending migrations and resolves secrets. */
export async function openRuntime(config: Config, hooks: Pick<OrmOptions, 'onQuery'> = {}): Promise<Runtime> {
  const database = await openDatabase(config);
  try {
    const orm = await openOrm({ clientUrl: database.url, poolSize: config.DB_POOL_SIZE, ...hooks });
    await migrate(orm);
    const jwtSecret = await resolveJwtSecret(config);
    return {
      config,
      database,
      orm,
      jwtSecret,
      close: async () => {
        await orm.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
