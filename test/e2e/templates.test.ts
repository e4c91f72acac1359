import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openOrm } from '../../core/persistence/orm.js';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { databaseUrl, queryRows, withAdmin } from '../support/database.js';
import { create, expectRejected } from '../support/fixtures.js';

describe('templates', () => {
  let app: TestApp;
  let a: SignedUp;

  beforeAll(async () => {
    app = await startTestApp();
    a = await app.signUp('A');
  });
  afterAll(() => app.close());

  it('starts every account with a default per kind and keeps exactly one default', async () => {
    const defaults = (await a.api.get('/v1/templates')).body.data;
    // Both are created at the same instant, so their order is by id: compare them sorted by kind.
    expect(defaults.map((t: any) => `${t.kind} ${t.isDefault} ${t.locale}`).sort()).toEqual(['credit_note true de-DE', 'invoice true de-DE']);
    const english = await create(a.api, '/v1/templates', { name: 'Invoice EN', kind: 'invoice', locale: 'en-GB', subject: 'Your invoice', isDefault: true });
    const invoices = (await a.api.get('/v1/templates?kind=invoice')).body.data;
    expect(invoices.map((t: any) => [t.id === english.id, t.isDefault]).sort()).toEqual([
      [false, false],
      [true, true],
    ]);
    const unset = await a.api.patch(`/v1/templates/${english.id}`, { isDefault: false });
    expect([unset.status, unset.body.code]).toEqual([409, 'default_template_required']);
    const removed = await expectRejected(a.api, { path: '/v1/templates', body: { name: 'X', kind: 'invoice', locale: 'de-DE', values: {} } }, { status: 400, code: 'field_removed', path: 'values' });
    expect(removed.errors[0].message).toContain('GET /v1/templates/{id}');
    await expectRejected(a.api, { path: '/v1/templates', body: { name: 'X', kind: 'letter', locale: 'fr-FR' } }, { status: 400, code: 'invalid_value', path: 'kind' });
    expect((await a.api.get('/v1/invoice-templates')).status).toBe(410);
  });

  it('gives accounts created before templates existed their defaults through the migration', async () => {
    const name = `ebbs_migrate_${randomUUID().slice(0, 8)}`;
    await withAdmin((c) => c.query(`CREATE DATABASE "${name}"`));
    const orm = await openOrm({ clientUrl: databaseUrl(name), poolSize: 1 });
    try {
      await orm.migrator.up({ to: 'Migration20261123013744' });
      await queryRows(databaseUrl(name), `insert into accounts (account_id, company_name, timezone, currency, created_at, updated_at) values (gen_random_uuid(), 'Old', 'Europe/Berlin', 'EUR', now(), now())`);
      await migrate(orm);
      const rows = await queryRows(databaseUrl(name), 'select kind, is_default from templates order by kind');
      expect(rows).toEqual([
        { kind: 'credit_note', is_default: true },
        { kind: 'invoice', is_default: true },
      ]);
    } finally {
      await orm.close();
      await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    }
  });
});
