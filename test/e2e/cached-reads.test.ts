import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGE_FEED_APPLICATION } from '../../core/persistence/pg-change-feed.js';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { queryRows } from '../support/database.js';
import { fixtures } from '../support/fixtures.js';

/**
 * A session's standing and the custom attribute names every record shows are kept in memory while
 * PostgreSQL announces each change (LISTEN/NOTIFY), and answered from it only once the feed has
 * caught up with every commit before the request; without the feed every request reads them.
 */
describe('reads answered from memory', () => {
  let app: TestApp;
  let a: SignedUp;
  let siteId: string;
  const statements: string[] = [];

  beforeAll(async () => {
    app = await startTestApp({ WORKER: 'off', CHANGE_FEED_RECONNECT_SECONDS: '5' }, { onQuery: (sql) => statements.push(sql) });
    a = await app.signUp();
    siteId = (await fixtures.site(a.api, { name: 'Haus A' })).id;
  });
  afterAll(() => app.close());

  /** The site's custom attributes, and whether the request read the definitions. */
  async function readSite(): Promise<{ attributes: Record<string, unknown>; readDefinitions: boolean }> {
    statements.length = 0;
    const response = await a.api.get(`/v1/sites/${siteId}`);
    expect(response.status).toBe(200);
    return { attributes: response.body.customAttributes, readDefinitions: statements.some((sql) => /\bcustom_attributes\b/.test(sql) && /^select/i.test(sql)) };
  }

  /** A definition written by another writer than this service (an operator, another process). */
  const insertDefinition = (name: string) =>
    queryRows(app.database.url, `insert into custom_attributes (id, account_id, title, name, entity, type, created_at, updated_at) values ($1, $2, $3, $3, 'site', 'text', now(), now())`, [randomUUID(), a.accountId, name]);

  async function eventually(check: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('not within 20 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('reads the definitions once, then answers from memory; a definition created through the API shows at once', async () => {
    await readSite();
    expect(await readSite()).toEqual({ attributes: {}, readDefinitions: false });
    const created = await a.api.post('/v1/custom-attributes', { title: 'Floor', name: 'floor', entity: 'site', type: 'text' });
    expect(created.status).toBe(201);
    expect(await readSite()).toEqual({ attributes: { floor: null }, readDefinitions: true });
    expect(await readSite()).toEqual({ attributes: { floor: null }, readDefinitions: false });
  });

  it('shows a definition another writer committed with the next request, not after the time to live', async () => {
    await insertDefinition('wing');
    expect(await readSite()).toEqual({ attributes: { floor: null, wing: null }, readDefinitions: true });
    await queryRows(app.database.url, `delete from custom_attributes where account_id = $1 and name = 'wing'`, [a.accountId]);
    expect(await readSite()).toEqual({ attributes: { floor: null }, readDefinitions: true });
    expect(await readSite()).toEqual({ attributes: { floor: null }, readDefinitions: false });
  });

  it('checks the session against memory, and a role changed by hand refuses the very next request', async () => {
    statements.length = 0;
    await a.api.get(`/v1/sites/${siteId}`);
    // The site read before, the token's standing and the attribute names all come from memory.
    expect(statements.filter((sql) => !/^(begin|commit)/i.test(sql))).toEqual([]);
    for (let round = 0; round < 25; round++) {
      for (const role of ['viewer', 'admin']) {
        await queryRows(app.database.url, `update users set role = $1 where id = $2`, [role, a.userId]);
        const answer = await a.api.get(`/v1/sites/${siteId}`);
        expect(answer.status, `round ${round}, role ${role}`).toBe(role === 'admin' ? 200 : 401);
      }
    }
  });

  it('answers a site, a customer and a meter read by id from memory, and shows an update or deletion by the API or by hand with the next request', async () => {
    const b = await app.signUp();
    const site = await fixtures.site(a.api, { name: 'Haus B' });
    const records = [
      { path: `/v1/meters/${(await fixtures.meter(a.api, site.id, { serial: 'S-1' })).id}`, table: 'meters', column: 'serial', field: 'serial', patch: 'S-2', byHand: 'S-3' },
      { path: `/v1/customers/${(await fixtures.customer(a.api, { lastName: 'Lehmann' })).id}`, table: 'customers', column: 'last_name', field: 'lastName', patch: 'Schulze', byHand: 'Krause' },
      { path: `/v1/sites/${site.id}`, table: 'sites', column: 'name', field: 'name', patch: 'Haus C', byHand: 'Haus D' },
    ];
    const read = async (path: string) => {
      statements.length = 0;
      const response = await a.api.get(path);
      return { status: response.status, body: response.body, statements: statements.filter((sql) => !/^(begin|commit)/i.test(sql)).length };
    };
    for (const record of records) {
      const id = record.path.split('/').at(-1)!;
      const first = await read(record.path);
      expect(first.status).toBe(200);
      expect(await read(record.path)).toEqual({ ...first, statements: 0 });
      // Another account's request for the same id is 404, not what the first account was answered.
      expect((await b.api.get(record.path)).status).toBe(404);

      expect((await a.api.patch(record.path, { [record.field]: record.patch })).status).toBe(200);
      expect((await read(record.path)).body[record.field]).toBe(record.patch);
      await queryRows(app.database.url, `update ${record.table} set ${record.column} = $1 where id = $2`, [record.byHand, id]);
      const changed = await read(record.path);
      expect([changed.body[record.field], changed.statements]).toEqual([record.byHand, 1]);
      expect((await read(record.path)).statements).toBe(0);
      await queryRows(app.database.url, `delete from ${record.table} where id = $1`, [id]);
      expect((await read(record.path)).status).toBe(404);
    }
  });

  it('answers GraphQL from the same memory, reading only the records it did not hold, and shows a change by hand with the next query', async () => {
    const site = await fixtures.site(a.api, { name: 'Haus E' });
    const product = await fixtures.product(a.api);
    const customers = [await fixtures.customer(a.api, { lastName: 'Vogel' }), await fixtures.customer(a.api, { lastName: 'Fink' })];
    const contracts = await Promise.all(customers.map((customer) => fixtures.contract(a.api, { customerId: customer.id, electricityProductId: product.id, siteId: site.id })));
    await a.api.get(`/v1/customers/${customers[0]!.id}`);
    // The contracts' customers and site are loaded in batches (GraphQL's data loaders), through the same memory.
    const query = async () => {
      statements.length = 0;
      const response = await a.api.graphql(`query($a: ID!, $b: ID!) { a: contract(id: $a) { site { name } customer { lastName } } b: contract(id: $b) { customer { lastName } } }`, {
        a: contracts[0]!.id,
        b: contracts[1]!.id,
      });
      expect(response.body.errors).toBeUndefined();
      const { a: first, b: second } = response.body.data;
      const reads = (table: string) => statements.filter((sql) => new RegExp(`^select .* from "${table}"`, 'i').test(sql));
      return { names: [first.site.name, first.customer.lastName, second.customer.lastName], customersRead: reads('customers').reduce((ids, sql) => ids + (sql.match(/\?/g) ?? []).length - 1, 0), sites: reads('sites').length };
    };
    // The first customer was read over REST: only the second is read (each statement names the account and the ids).
    expect(await query()).toEqual({ names: ['Haus E', 'Vogel', 'Fink'], customersRead: 1, sites: 1 });
    expect(await query()).toEqual({ names: ['Haus E', 'Vogel', 'Fink'], customersRead: 0, sites: 0 });
    await queryRows(app.database.url, `update customers set last_name = 'Amsel' where id = $1`, [customers[1]!.id]);
    await queryRows(app.database.url, `update sites set name = 'Haus F' where id = $1`, [site.id]);
    // A change forgets all of the account's customers: both are read again.
    expect(await query()).toEqual({ names: ['Haus F', 'Vogel', 'Amsel'], customersRead: 2, sites: 1 });
  });

  it('reads the database on every request while the feed is down, and caches again once it is back', async () => {
    const [terminated] = await queryRows(app.database.url, `select count(pg_terminate_backend(pid))::int as count from pg_stat_activity where application_name = $1 and datname = current_database()`, [CHANGE_FEED_APPLICATION]);
    expect(terminated!.count).toBe(1);
    await eventually(async () => app.logs.some((line) => line.includes('change feed lost')));
    // A change made while nobody listens is not missed: reads go to the database until the feed is back.
    await insertDefinition('stairs');
    expect(await readSite()).toEqual({ attributes: { floor: null, stairs: null }, readDefinitions: true });
    expect(await readSite()).toEqual({ attributes: { floor: null, stairs: null }, readDefinitions: true });
    await eventually(async () => (await readSite(), !(await readSite()).readDefinitions));
    expect(await readSite()).toEqual({ attributes: { floor: null, stairs: null }, readDefinitions: false });
  });
});
