import { ReferenceKind, type EntityName } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { boundQuery } from './bound-query.js';

/** A value as PostgreSQL reads it from text: the column's cast gives it its type. */
export function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Inserts `records` of one entity with one statement that takes one text array per column and
 * casts each to its column's type. MikroORM's insertMany writes every value into the statement's
 * text, which PostgreSQL then parses literal by literal; for the thousands of rows of a bill-run
 * batch, building and parsing that text cost about as much as the insert itself. Values pass
 * through the properties' own types (bigints, JSON with its custom form) as they would with
 * insertMany. Every column is written: a property left undefined is stored as null, not as the
 * column's default. Binary columns (bytea) are not handled.
 */
export async function insertUnnested<T extends object>(em: EntityManager, entity: EntityName<T>, records: readonly T[]): Promise<void> {
  if (records.length === 0) return;
  const meta = em.getMetadata(entity);
  const platform = em.getPlatform();
  // The scalars and the tenant key (a reference mapped to its id); the tenant foreign keys are not persisted.
  const stored = (kind: ReferenceKind) => kind === ReferenceKind.SCALAR || kind === ReferenceKind.MANY_TO_ONE;
  const columns = meta.props.filter((prop) => stored(prop.kind) && prop.persist !== false && prop.fieldNames.length === 1);
  const values = columns.map((prop) =>
    records.map((record) => {
      const value = (record as Record<string, unknown>)[prop.name];
      return asText(prop.customType && value != null ? prop.customType.convertToDatabaseValue(value, platform, { mode: 'query' }) : value);
    }),
  );
  const names = columns.map((prop) => `"${prop.fieldNames[0]}"`);
  await boundQuery(
    em,
    `insert into "${meta.tableName}" (${names.join(', ')})
     select ${columns.map((prop, i) => `c${i}::${prop.columnTypes[0]}`).join(', ')}
       from unnest(${columns.map(() => '?::text[]').join(', ')}) as u(${columns.map((_, i) => `c${i}`).join(', ')})`,
    values,
  );
}
