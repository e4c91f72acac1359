import { p, ReferenceKind, type EntityMetadata } from '@mikro-orm/core';
import { Account } from '../domain/accounts/account.js';

/*
 * Every tenant table is keyed so that it can be distributed by `account_id` (Citus) with all
 * tenant tables co-located: `account_id` leads every primary key, unique and exclusion constraint,
 * and every foreign key between tenant tables is `(account_id, x_id) -> (account_id, id)` with no
 * ON UPDATE action and no ON DELETE SET NULL (a distributed row's account_id never changes and is
 * never null). Ids stay globally unique UUIDs; the API never shows the composite key.
 */

/** The tenant column, first part of the table's primary key: MikroORM's own statements carry it. */
// Refers to the accounts table by its domain class: account.entities imports this module.
export function accountKey() {
  return p.manyToOne(Account).mapToPk().fieldName('account_id').primary();
}

/**
 * The foreign key of a reference the domain holds as a plain id (declare the scalar `<name>Id`
 * property first). MikroORM cannot map a relation that shares `account_id` with the primary key to
 * a plain string, so this relation is not persisted or hydrated at run time: it orders the unit of
 * work's inserts (parents first) and, in the schema mode used to diff migrations
 * (`ormConfig({ schemaMode: true })`), declares the composite foreign key.
 */
export function tenantForeignKey(target: () => Parameters<typeof p.manyToOne>[0], column: string, onDelete: 'cascade' | 'no action' = 'no action') {
  return () => p.manyToOne(target()).joinColumns('account_id', column).persist(false).hydrate(false).nullable().updateRule('no action').deleteRule(onDelete);
}

const isTenantForeignKey = (prop: EntityMetadata['properties'][string]) => prop.kind === ReferenceKind.MANY_TO_ONE && prop.persist === false && prop.hydrate === false;

/** Schema mode: the foreign keys `tenantForeignKey` declares become part of the schema MikroORM diffs. */
export function declareTenantForeignKeys(meta: EntityMetadata): void {
  for (const prop of Object.values(meta.properties)) if (isTenantForeignKey(prop)) prop.persist = true;
}
