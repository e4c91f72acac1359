import { ReferenceKind, type EntityMetadata, type EntityName, type EntityProperty, type Platform } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { boundQuery } from './bound-query.js';

/** How one column becomes one property: MikroORM's own conversion for the property's type, if it has one. */
interface ColumnMapping {
  property: string;
  column: string;
  convert?: (value: unknown) => unknown;
}

/** What MikroORM's hydrator does with a non-null column value of the property's type. */
function converterOf(prop: EntityProperty, platform: Platform): ColumnMapping['convert'] {
  const type = prop.customType;
  if (type) return (value) => type.convertToJSValue(value, platform);
  if (prop.runtimeType === 'boolean') return (value) => !!value;
  if (prop.runtimeType === 'Date') return (value) => (value instanceof Date ? value : new Date(value as string));
  return undefined;
}

const mappings = new WeakMap<EntityMetadata, ColumnMapping[]>();

function mappingOf(em: EntityManager, meta: EntityMetadata): ColumnMapping[] {
  let mapping = mappings.get(meta);
  if (!mapping) {
    const platform = em.getPlatform();
    // Scalars, and references mapped to their key (account_id); not the tenant foreign keys, which are never hydrated.
    const hydrated = (prop: EntityProperty) => prop.kind === ReferenceKind.SCALAR || (prop.kind === ReferenceKind.MANY_TO_ONE && prop.mapToPk && prop.hydrate !== false);
    mapping = meta.props.filter(hydrated).map((prop) => ({ property: prop.name, column: prop.fieldNames[0]!, convert: converterOf(prop, platform) }));
    mappings.set(meta, mapping);
  }
  return mapping;
}

/**
 * Rows of an entity's table, selected by `clause` (what follows `where`, with `?` parameters), as
 * instances of its domain class outside the unit of work: changing one writes nothing. For reads
 * of hundreds of records that are never written (a bill-run batch's contracts, their meters and
 * customers): MikroORM's `find` spent 3 to 10 times as long creating and registering 500 entities
 * as the statement took, also outside the identity map.
 */
export async function plainRows<T extends object>(em: EntityManager, entity: EntityName<T>, clause: string, params: readonly unknown[]): Promise<T[]> {
  const meta = em.getMetadata().get(entity);
  const mapping = mappingOf(em, meta);
  const rows = await boundQuery<Record<string, unknown>>(em, `select * from ${meta.tableName} where ${clause}`, params);
  const prototype = (meta.class as { prototype: object }).prototype;
  return rows.map((row) => {
    const record = Object.create(prototype) as Record<string, unknown>;
    for (const { property, column, convert } of mapping) {
      const value = row[column];
      record[property] = convert && value !== null && value !== undefined ? convert(value) : value;
    }
    return record as T;
  });
}
