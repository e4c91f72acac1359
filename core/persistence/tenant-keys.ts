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

type Property = EntityMetadata['properties'][string];

const isTenantForeignKey = (prop: Property) => prop.kind === ReferenceKind.MANY_TO_ONE && prop.persist === false && prop.hydrate === false;

const columnOf = (prop: Property) => prop.fieldNames?.[0] ?? prop.name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Whether the tenant foreign key's own column (the one beside account_id) is never null. */
function alwaysSet(meta: EntityMetadata, reference: Property): boolean {
  const column = reference.joinColumns?.[1];
  const scalar = Object.values(meta.properties).find((prop) => prop.kind === ReferenceKind.SCALAR && columnOf(prop) === column);
  return scalar !== undefined && !scalar.nullable;
}

/**
 * Schema mode: the foreign keys `tenantForeignKey` declares become part of the schema MikroORM
 * diffs. A table whose every row refers to another tenant row (through a column that is never
 * null) does not refer to accounts as well: the row it refers to has the same account_id and
 * refers to its account itself. PostgreSQL checks each foreign key of each row inserted with a
 * lookup and a share lock on the row referred to: inserting the 72,468 balance_days rows of a
 * balanced site-year took 0.5 s without foreign keys, 1.0–1.2 s with the one to sites, 1.8 s with
 * both.
 */
export function declareTenantForeignKeys(meta: EntityMetadata): void {
  const references = Object.values(meta.properties).filter(isTenantForeignKey);
  for (const prop of references) prop.persist = true;
  if (!references.some((reference) => alwaysSet(meta, reference))) return;
  const account = Object.values(meta.properties).find((prop) => prop.kind === ReferenceKind.MANY_TO_ONE && !references.includes(prop) && columnOf(prop) === 'account_id');
  if (account) account.createForeignKeyConstraint = false;
}
