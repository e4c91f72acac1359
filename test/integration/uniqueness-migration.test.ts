import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openOrm } from '../../core/persistence/orm.js';
import { databaseUrl, queryRows, withAdmin } from '../support/database.js';

/** The last migration before the unique indexes of "at most one" rules. */
const BEFORE = 'Migration20261123052739';

describe('the migration adding the indexes of "at most one" rules, over data that breaks them', () => {
  const name = `ebbs_uniques_${randomUUID().slice(0, 8)}`;
  const url = databaseUrl(name);
  let orm: MikroORM;
  const sql = (text: string, params: unknown[] = []) => queryRows(url, text, params);

  beforeAll(async () => {
    await withAdmin((c) => c.query(`CREATE DATABASE "${name}"`));
    orm = await openOrm({ clientUrl: url, poolSize: 1 });
    await orm.migrator.up({ to: BEFORE });
  });
  afterAll(async () => {
    await orm.close();
    await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  });

  const indexes = async () =>
    (
      await sql(`select indexname as name from pg_indexes where indexname in ('mpos_one_virtual_per_account', 'meters_one_grid_per_site', 'templates_one_default_per_kind', 'tax_rates_no_overlap')`)
    ).map((r) => r.name);

  it('fails naming the duplicates, deletes nothing, and applies once they are resolved', async () => {
    const account = randomUUID();
    const site = randomUUID();
    const [virtual1, virtual2, grid1, grid2, rate1, rate2, template1, template2] = Array.from({ length: 8 }, () => randomUUID());
    await sql(`insert into accounts values ($1, 'Old', 'Europe/Berlin', 'EUR', now(), now())`, [account]);
    await sql(`insert into sites values ($1, $2, 'Site', 'balanced_accurate', 'PT15M', '{}', '{}', now(), now())`, [site, account]);
    await sql(`insert into mpos values ($1, $3, 'pseudo', 'virtual', 'V1', now(), now()), ($2, $3, 'pseudo', 'virtual', 'V2', now(), now())`, [virtual1, virtual2, account]);
    await sql(
      `insert into meters (id, account_id, site_id, mpo_id, direction, identifier, start_date, measuring, grid, formula, custom_attributes, created_at, updated_at)
       select id, $3, $4, $5, 'consumer', identifier, now(), 'load_profile_accurate', true, '[]', '{}', now(), now()
         from (values ($1::uuid, 'GRID1'), ($2::uuid, 'GRID2')) as m(id, identifier)`,
      [grid1, grid2, account, site, virtual1],
    );
    await sql(
      `insert into tax_rates values ($1, $3, 'VAT', 1900, '2020-01-01', null, now(), now()), ($2, $3, 'VAT', 700, '2024-01-01', '2025-01-01', now(), now())`,
      [rate1, rate2, account],
    );
    await sql(
      `insert into templates (id, account_id, name, kind, locale, is_default, created_at, updated_at)
       values ($1, $3, 'A', 'invoice', 'de-DE', true, now(), now()), ($2, $3, 'B', 'invoice', 'de-DE', true, now(), now())`,
      [template1, template2, account],
    );

    const failure = await migrate(orm).then(
      () => null,
      (error: Error) => error.message,
    );
    // Rows of one statement share created_at: they are listed by id.
    expect(failure).toContain(`More than one virtual MPO (channel pseudo, provider virtual) in an account: account ${account}: MPOs ${[virtual1, virtual2].sort().join(', ')}`);
    expect((await orm.migrator.getExecuted()).map((m) => m.name).at(-1)).toBe(BEFORE);
    expect(await indexes()).toEqual([]);
    expect((await sql('select count(*)::int as n from mpos')).at(0)!.n).toBe(2);

    // One rule at a time: each next attempt names the next rule's rows.
    await sql('delete from mpos where id = $1', [virtual2]);
    const grid = await migrate(orm).then(() => null, (error: Error) => error.message);
    expect(grid).toContain(`More than one grid meter on a site: site ${site}: meters ${[grid1, grid2].sort().join(', ')}`);
    expect((await sql('select count(*)::int as n from meters where grid')).at(0)!.n).toBe(2);

    await sql('update meters set grid = false where id = $1', [grid2]);
    const rates = await migrate(orm).then(() => null, (error: Error) => error.message);
    expect(rates).toContain(`Tax rates of one name in force on the same day: "VAT": tax rates ${[rate1, rate2].sort().join(' and ')}`);

    await sql(`update tax_rates set valid_until = '2024-01-01' where id = $1`, [rate1]);
    const templates = await migrate(orm).then(() => null, (error: Error) => error.message);
    expect(templates).toContain(`More than one default template of a kind in an account: account ${account}, invoice: templates ${[template1, template2].sort().join(', ')}`);

    await sql('update templates set is_default = false where id = $1', [template2]);
    await migrate(orm);
    expect((await indexes()).sort()).toEqual(['meters_one_grid_per_site', 'mpos_one_virtual_per_account', 'tax_rates_no_overlap', 'templates_one_default_per_kind']);
    expect(await sql('select id from mpos')).toEqual([{ id: virtual1 }]);
  });
});
