import { readFileSync } from 'node:fs';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openOrm } from '../../core/persistence/orm.js';
import { createTestDatabase, queryRows, type TestDatabase } from '../support/database.js';

/**
 * Lists every constraint that would stop `create_distributed_table(<table>, 'account_id')` from
 * distributing the tenant tables co-located: primary, unique and exclusion constraints without
 * account_id, foreign keys between tenant tables that do not pair account_id with account_id, and
 * ON UPDATE / ON DELETE SET NULL actions. Ready means no row.
 */
const READINESS = readFileSync(new URL('../schema/citus-readiness.sql', import.meta.url), 'utf8');

describe('the migrated schema', () => {
  let database: TestDatabase;
  let orm: MikroORM;
  const sql = (text: string) => queryRows(database.url, text);

  beforeAll(async () => {
    database = await createTestDatabase(inject('templateDatabase'));
    orm = await openOrm({ clientUrl: database.url, poolSize: 1, schemaMode: true });
  });
  afterAll(async () => {
    await orm.close();
    await database.drop();
  });

  it('is ready to be distributed by account_id (Citus): the readiness query lists nothing', async () => {
    expect(await sql(READINESS)).toEqual([]);
  });

  it('names planted constraints that would block distribution: a unique key without account_id, a foreign key on id alone, ON DELETE SET NULL', async () => {
    await sql(`alter table sites add constraint planted_unique unique (id);
               alter table meters add constraint planted_fk foreign key (site_id) references sites (id);
               alter table contracts add constraint planted_set_null foreign key (account_id, site_id) references sites (account_id, id) on delete set null`);
    try {
      const found = (await sql(READINESS)).map((row) => `${row.table}.${row.constraint}: ${row.problem}`);
      expect(found).toEqual([
        'contracts.planted_set_null: FK with ON UPDATE CASCADE/SET NULL/SET DEFAULT or ON DELETE SET NULL/SET DEFAULT',
        'meters.planted_fk: foreign key to sites does not pair account_id with account_id',
        'sites.planted_unique: unique/exclusion without account_id',
      ]);
    } finally {
      await sql('alter table contracts drop constraint planted_set_null; alter table meters drop constraint planted_fk; alter table sites drop constraint planted_unique');
    }
  });

  it('compresses the PDFs and e-invoices issuing writes with LZ4 (this server has it), and nothing else differs from the default', async () => {
    const compressed = await sql(`select attrelid::regclass::text as "table", attname as "column", attcompression as method from pg_attribute
                                   where attcompression <> '' and attrelid::regclass::text not like 'pg_%' order by 1, 2`);
    expect(compressed).toEqual([
      { table: 'invoice_e_invoices', column: 'xml', method: 'l' },
      { table: 'invoice_pdfs', column: 'content', method: 'l' },
    ]);
  });

  it('refers a tenant table to accounts exactly when no foreign key on columns that are never null implies its account', async () => {
    const tables = await sql(`
      select c.relname as "table",
             exists (select 1 from pg_constraint con where con.conrelid = c.oid and con.contype = 'f' and con.confrelid = 'accounts'::regclass) as "refersToAccounts",
             exists (select 1 from pg_constraint con where con.conrelid = c.oid and con.contype = 'f' and con.confrelid <> 'accounts'::regclass
                       and not exists (select 1 from unnest(con.conkey) as k(attnum) join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum where not a.attnotnull)) as "implied"
        from pg_class c join pg_attribute a on a.attrelid = c.oid and a.attname = 'account_id'
       where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r' and c.relname <> 'accounts'
       order by 1`);
    expect(tables.filter((table) => table.refersToAccounts === table.implied)).toEqual([]);
    // Both kinds exist: a table of rows that belong to another tenant row, and one of the account's own rows.
    expect(tables.find((table) => table.table === 'balance_days')).toEqual({ table: 'balance_days', refersToAccounts: false, implied: true });
    expect(tables.find((table) => table.table === 'sites')).toEqual({ table: 'sites', refersToAccounts: true, implied: false });
  });

  it('has no plain index whose columns lead another index of its table, which answers the same lookups', async () => {
    const redundant = `
      select a.indexrelid::regclass::text as "index", b.indexrelid::regclass::text as "coveredBy"
        from pg_index a
        join pg_index b on b.indrelid = a.indrelid and b.indexrelid <> a.indexrelid
        join pg_class c on c.oid = a.indrelid
       where c.relnamespace = current_schema()::regnamespace and not a.indisunique
         and a.indexprs is null and b.indexprs is null and a.indpred is null and b.indpred is null
         and (b.indkey::text || ' ') like (a.indkey::text || ' %')
         and (select array_agg(am.amname) from pg_class i join pg_am am on am.oid = i.relam where i.oid in (a.indexrelid, b.indexrelid)) = array['btree', 'btree']::name[]
       order by 1, 2`;
    expect(await sql(redundant)).toEqual([]);
    // The query finds one: a plain index on the columns of the events' unique key.
    await sql('create index planted_events_sequence on events (account_id, sequence)');
    try {
      expect(await sql(redundant)).toEqual([{ index: 'planted_events_sequence', coveredBy: 'events_account_id_sequence_unique' }]);
    } finally {
      await sql('drop index planted_events_sequence');
    }
  });

  it('is what the entities declare: MikroORM finds nothing to change (a new migration would be empty)', async () => {
    expect(await orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe('');
  });

  it("README's create_distributed_table calls name every tenant table once, each after the tables it refers to", async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const block = /^```sql\n(SELECT create_distributed_table[\s\S]*?)^```$/m.exec(readme)![1]!;
    const order = [...block.replace(/colocate_with => '\w+'/g, '').matchAll(/'([a-z_]+)'/g)].map((match) => match[1]!).filter((name) => name !== 'account_id');
    const tenantTables = (await sql(`select c.relname from pg_class c join pg_attribute a on a.attrelid = c.oid and a.attname = 'account_id'
                                       where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r' order by 1`)).map((row) => row.relname);
    expect([...order].sort()).toEqual(tenantTables);
    const references = await sql(`select con.conrelid::regclass::text as child, con.confrelid::regclass::text as parent from pg_constraint con
                                   where con.contype = 'f' and con.conrelid <> con.confrelid and con.connamespace = current_schema()::regnamespace`);
    for (const { child, parent } of references) expect(order.indexOf(parent), `${parent} before ${child}`).toBeLessThan(order.indexOf(child));
  });
});
