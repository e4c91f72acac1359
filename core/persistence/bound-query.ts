import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery } from 'kysely';

/**
 * Runs SQL with server-side parameters ($1, $2, …) in the current unit of work. `em.execute`
 * inlines parameters as escaped literals, which costs more than the statement itself for the
 * megabyte-sized JSON payloads of set-based writes.
 */
export async function boundQuery<R = Record<string, unknown>>(em: EntityManager, query: string, params: readonly unknown[]): Promise<R[]> {
  let index = 0;
  const text = query.replace(/\?/g, () => `$${++index}`);
  const started = Date.now();
  try {
    const result = await em.getContext().getKysely().executeQuery<R>(CompiledQuery.raw(text, [...params]));
    // Kysely logs nothing: the statement goes to the query log (debug mode only) like `em.execute`'s.
    em.config.getLogger().logQuery({ query: text, params, took: Date.now() - started, results: result.rows.length, level: 'info' });
    return result.rows;
  } catch (error) {
    em.config.getLogger().logQuery({ query: text, params, took: Date.now() - started, level: 'error' });
    throw error;
  }
}
