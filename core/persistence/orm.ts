import { fileURLToPath } from 'node:url';
import { Migrator } from '@mikro-orm/migrations';
import { DefaultLogger, defineConfig, MikroORM, type LogContext, type LoggerOptions } from '@mikro-orm/postgresql';
import { entities } from './entities.js';
import { scopedEntityManager } from './request-scope.js';
import { SetBasedUpdatesDriver } from './set-based-updates.js';
import { declareTenantForeignKeys } from './tenant-keys.js';

export const MIGRATIONS_PATH = fileURLToPath(new URL('../../migrations', import.meta.url));

export interface OrmOptions {
  clientUrl: string;
  poolSize?: number;
  /**
   * Sees every SQL statement verbatim, with MikroORM's `?` placeholders (server-side ones as `$1`,
   * `$2`, …) and its parameters: tests count them to prove batching and parse them to check tenancy.
   */
  onQuery?: (sql: string, params: readonly unknown[]) => void;
  /**
   * Declares the composite foreign keys between tenant tables to MikroORM, for diffing the schema
   * (creating a migration); at run time they are left out (see `tenantForeignKey`).
   */
  schemaMode?: boolean;
}

/** Hands each statement to `onQuery` as run: the default logger's line drops newlines, so a `--` comment would swallow the rest. */
class StatementHook extends DefaultLogger {
  constructor(
    options: LoggerOptions,
    private readonly onQuery: (sql: string, params: readonly unknown[]) => void,
  ) {
    super(options);
  }

  override logQuery(context: LogContext): void {
    const namespace = context.namespace ?? 'query';
    if (namespace === 'query' && context.query !== undefined && this.isEnabled(namespace, context)) this.onQuery(context.query, context.params ?? []);
  }
}

/**
 * One writer per table. An aggregate the ORM loads is written by the ORM: new ones are persisted,
 * loaded ones change through their domain methods, and the unit of work writes both when it
 * commits (inserts batched, `batchSize` rows per statement). Repositories never flush; a query
 * that must see the unit of work's pending changes reads through the ORM (its flush mode writes
 * them first). Set-based SQL writes only tables no use case loads as entities: time series,
 * counters, errors, the outbox; set-based reads anywhere.
 */
export function ormConfig({ clientUrl, poolSize = 10, onQuery, schemaMode = false }: OrmOptions) {
  return defineConfig({
    driver: SetBasedUpdatesDriver,
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
    // Every use goes through a request or job scope (request-scope.ts); the global manager is a bug.
    allowGlobalContext: false,
    context: scopedEntityManager,
    // By default MikroORM puts a setter for every property on each entity class's prototype, which
    // defines the property on an instance when it is first set: for keeping both sides of
    // bidirectional relations in sync, and ebbs declares none. That cost 15–25 µs per object, for
    // every entity loaded and every domain object built (3,500 lines of a bill-run batch: 78–100 ms
    // with the setters, 12–24 ms without).
    propagationOnPrototype: false,
    discovery: { checkNonPersistentCompositeProps: false, ...(schemaMode ? { onMetadata: declareTenantForeignKeys } : {}) },
    debug: onQuery ? ['query'] : false,
    ...(onQuery ? { loggerFactory: (options: LoggerOptions) => new StatementHook(options, onQuery) } : {}),
  });
}

export async function openOrm(options: OrmOptions): Promise<MikroORM> {
  return MikroORM.init(ormConfig(options));
}

export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await orm.migrator.up();
  return applied.map((m) => m.name);
}
