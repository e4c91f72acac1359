import { fileURLToPath } from 'node:url';
import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, MikroORM } from '@mikro-orm/postgresql';
import { entities } from './entities.js';

export const MIGRATIONS_PATH = fileURLToPath(new URL('../../migrations', import.meta.url));

export interface OrmOptions {
  clientUrl: string;
  poolSize?: number;
  /** Sees every SQL statement (tests count them to prove batching). */
  onQuery?: (sql: string) => void;
}

export function ormConfig({ clientUrl, poolSize = 10, onQuery }: OrmOptions) {
  return defineConfig({
    clientUrl,
    entities,
    extensions: [Migrator],
    pool: { min: 0, max: poolSize },
    migrations: {
      path: MIGRATIONS_PATH,
      pathTs: MIGRATIONS_PATH,
      glob: '!(*.d).{js,ts}',
      emit: 'ts',
      snapshot: false,
      transactional: true,
      allOrNothing: true,
      silent: true,
    },
    // Every use goes through a request or job context; the global manager is a bug.
    allowGlobalContext: false,
    debug: onQuery ? ['query'] : false,
    ...(onQuery ? { logger: (message: string) => message.includes('[query]') && onQuery(message) } : {}),
  });
}

export async function openOrm(options: OrmOptions): Promise<MikroORM> {
  return MikroORM.init(ormConfig(options));
}

export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await orm.migrator.up();
  return applied.map((m) => m.name);
}
