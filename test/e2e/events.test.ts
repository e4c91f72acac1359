import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { balancedSite, dayOfValues, waitForBalance } from '../support/balancing.js';
import { queryRows } from '../support/database.js';
import { create, fixtures } from '../support/fixtures.js';

describe('events: the transactional outbox', () => {
  let app: TestApp;
  let a: SignedUp;
  let b: SignedUp;

  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000', QUEUE_POLL_SECONDS: '0.5' });
    a = await app.signUp('A');
    b = await app.signUp('B');
  });
  afterAll(() => app.close());

  const eventsOf = async (entityId: string) =>
    (await a.api.get('/v1/events?limit=1000')).body.data.filter((e: { data: { id?: string; siteId?: string } }) => e.data.id === entityId || e.data.siteId === entityId);

  it('writes the envelope with the entity as REST shows it, for REST and GraphQL writes alike', async () => {
    const site = await fixtures.site(a.api);
    const renamed = await a.api.graphql(`mutation($id: ID!) { updateSite(id: $id, input: { name: "Renamed" }) { id } }`, { id: site.id });
    expect(renamed.body.errors).toBeUndefined();
    const current = (await a.api.get(`/v1/sites/${site.id}`)).body;
    const events = await eventsOf(site.id);
    expect(events.map((e: { type: string }) => e.type)).toEqual(['site.created', 'site.updated']);
    expect(Object.keys(events[0]).sort()).toEqual(['accountId', 'data', 'id', 'siteIds', 'timestamp', 'type', 'userId']);
    expect(events[0]).toMatchObject({ accountId: a.accountId, userId: a.userId, siteIds: [site.id], data: site });
    expect(events[1].data).toEqual(current);
    expect(Date.parse(events[1].timestamp)).toBeGreaterThanOrEqual(Date.parse(events[0].timestamp));
    expect((await a.api.get(`/v1/events/${events[0].id}`)).body).toEqual(events[0]);
    expect((await b.api.get(`/v1/events/${events[0].id}`)).status).toBe(404);
    expect((await b.api.get('/v1/events')).body.data.some((e: { accountId: string }) => e.accountId === a.accountId)).toBe(false);
  });

  it('names the sites of each entity', async () => {
    const site = await fixtures.site(a.api);
    const product = await fixtures.product(a.api);
    const customer = await fixtures.customer(a.api);
    const meter = await fixtures.meter(a.api, site.id);
    const contract = await fixtures.contract(a.api, { customerId: customer.id, electricityProductId: product.id, siteId: site.id });
    await a.api.patch(`/v1/customers/${customer.id}`, { customAttributes: {} });
    const method = await create(a.api, '/v1/payment-methods', { customerId: customer.id, type: 'bank_transfer' });
    const payment = await create(a.api, '/v1/payments', { contractId: contract.id, amount: '1.00', type: 'payment', dueDate: '2026-01-01' });
    const siteIdsOf = async (id: string) => (await eventsOf(id)).map((e: { type: string; siteIds: string[] }) => [e.type, e.siteIds]);
    expect(await siteIdsOf(customer.id)).toEqual([
      ['customer.created', []],
      ['customer.updated', [site.id]],
    ]);
    expect(await siteIdsOf(meter.id)).toEqual([['meter.created', [site.id]]]);
    expect(await siteIdsOf(contract.id)).toEqual([['contract.created', [site.id]]]);
    expect(await siteIdsOf(method.id)).toEqual([['payment_method.created', [site.id]]]);
    const second = await create(a.api, '/v1/payment-methods', { customerId: customer.id, type: 'bank_transfer', isDefault: true });
    const [undefaulted] = (await eventsOf(method.id)).slice(1);
    expect(undefaulted).toMatchObject({ type: 'payment_method.updated', data: { id: method.id, isDefault: false } });
    expect((await eventsOf(second.id)).map((e: { type: string }) => e.type)).toEqual(['payment_method.created']);
    expect(await siteIdsOf(payment.id)).toEqual([['payment.created', [site.id]]]);
  });

  it('writes no event for a change that rolls back, and no change without its event', async () => {
    const before = (await a.api.get('/v1/events')).body.total;
    await queryRows(
      app.database.url,
      `create function refuse_site() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$;
       create trigger refuse_site before insert on sites for each row execute function refuse_site();`,
    );
    try {
      const refused = await a.api.post('/v1/sites', { name: 'Doomed', type: 'balanced_accurate', address: { locality: 'Berlin', postCode: '10115', country: 'DE' } });
      expect(refused.status).toBe(500);
    } finally {
      await queryRows(app.database.url, 'drop trigger refuse_site on sites; drop function refuse_site();');
    }
    expect((await a.api.get('/v1/events')).body.total).toBe(before);
    const [orphans] = await queryRows(app.database.url, `select count(*)::int as n from sites s where not exists (select 1 from events e where e.entity_id = s.id and e.type = 'site.created')`);
    expect(orphans!.n).toBe(0);
  });

  it('emits one event per payment of a batch and per prepayment a request creates, in order', async () => {
    const site = await fixtures.site(a.api);
    const product = await fixtures.product(a.api, { prepaymentConfiguration: { cycle: 'monthly', dayOfMonth: 1 } });
    const customer = await fixtures.customer(a.api);
    const contract = await fixtures.contract(a.api, { customerId: customer.id, electricityProductId: product.id, siteId: site.id });
    const batch = await a.api.post('/v1/payments/batch', { payments: ['2026-01-05', '2026-01-06', '2026-01-07'].map((dueDate) => ({ contractId: contract.id, amount: '3.00', type: 'payment', dueDate })) });
    await create(a.api, '/v1/prepayment-amounts', { contractId: contract.id, amount: '10.00', validFrom: '2026-01-01' });
    const request = await create(a.api, '/v1/prepayment-requests', { contractId: contract.id, startDate: '2026-01-01', endDate: '2026-03-01' });
    await create(a.api, '/v1/prepayment-requests', { contractId: contract.id, startDate: '2026-01-01', endDate: '2026-03-01' });
    const created = (await a.api.get('/v1/events?type=payment.created&limit=1000')).body.data.filter((e: { data: { contractId: string } }) => e.data.contractId === contract.id);
    expect(created.map((e: { data: { id: string } }) => e.data.id)).toEqual([...batch.body.data.map((p: { id: string }) => p.id), ...request.paymentIds]);
  });

  it('filters by type and time range, half-open', async () => {
    const site = await fixtures.site(a.api);
    const [event] = await eventsOf(site.id);
    const at = event.timestamp;
    const ids = async (query: string) => (await a.api.get(`/v1/events?limit=1000&${query}`)).body.data.map((e: { id: string }) => e.id);
    expect(await ids(`type=site.created&startDateTime=${at}`)).toContain(event.id);
    expect(await ids(`type=site.created&endDateTime=${at}`)).not.toContain(event.id);
    expect(await ids('type=meter.created')).not.toContain(event.id);
    const bad = await a.api.get('/v1/events?type=site.exploded');
    expect([bad.status, bad.body.errors[0].path]).toEqual([400, 'type']);
  });

  it('reports balancing.completed from the worker, without a user', async () => {
    const { site, producer, consumers } = await balancedSite(a.api, [1]);
    const day = '2026-03-01T23:00:00.000Z';
    await a.api.post('/v1/measurements', { measurements: [...dayOfValues(producer.id, day, () => 1), ...dayOfValues(consumers[0]!.id, day, () => 2)] });
    await waitForBalance(a.api, site.id, '2026-03-02T22:45:00.000Z');
    const [completed] = (await eventsOf(site.id)).filter((e: { type: string }) => e.type === 'balancing.completed');
    expect(completed).toMatchObject({ userId: null, siteIds: [site.id], data: { siteId: site.id } });
    expect(completed.data.startDateTime <= day && completed.data.endDateTime >= '2026-03-02T23:00:00.000Z').toBe(true);
  });
});

describe('deletions for internal tools', () => {
  let app: TestApp;
  let a: SignedUp;

  beforeAll(async () => {
    app = await startTestApp();
    a = await app.signUp('A');
  });
  afterAll(() => app.close());

  const remove = (mutation: string, id: string) => a.api.graphql(`mutation($id: ID!) { ${mutation}(id: $id) { id } }`, { id });

  it('deletes what nothing refers to, emitting .deleted, and names what refers to the rest', async () => {
    const site = await fixtures.site(a.api);
    const product = await fixtures.product(a.api);
    const customer = await fixtures.customer(a.api);
    const meter = await fixtures.meter(a.api, site.id);
    const contract = await fixtures.contract(a.api, { customerId: customer.id, electricityProductId: product.id, siteId: site.id });
    const method = await create(a.api, '/v1/payment-methods', { customerId: customer.id, type: 'bank_transfer' });

    const blocked = await remove('deleteSite', site.id);
    expect(blocked.body.errors[0].extensions.code).toBe('site_in_use');
    expect(blocked.body.errors[0].message).toMatch(/meters: 1, contracts: 1/);
    expect((await remove('deleteCustomer', customer.id)).body.errors[0].message).toMatch(/contracts: 1, payment methods: 1/);
    expect((await a.api.get(`/v1/sites/${site.id}`)).status).toBe(200);

    for (const [mutation, entity] of [['deletePaymentMethod', method], ['deleteContract', contract], ['deleteCustomer', customer], ['deleteMeter', meter], ['deleteSite', site]] as const) {
      const deleted = await remove(mutation, entity.id);
      expect(deleted.body, mutation).toEqual({ data: { [mutation]: { id: entity.id } } });
    }
    expect((await a.api.get(`/v1/sites/${site.id}`)).status).toBe(404);
    const deletions = (await a.api.get('/v1/events?limit=1000')).body.data.filter((e: { type: string }) => e.type.endsWith('.deleted'));
    expect(deletions.map((e: { type: string; entityId?: string; data: { id: string } }) => [e.type, e.data.id])).toEqual([
      ['payment_method.deleted', method.id],
      ['contract.deleted', contract.id],
      ['customer.deleted', customer.id],
      ['meter.deleted', meter.id],
      ['site.deleted', site.id],
    ]);
    expect(deletions.find((e: { type: string }) => e.type === 'site.deleted').data).toMatchObject({ id: site.id, name: site.name });
  });

  it('keeps DELETE off the /v1 contract for these resources', async () => {
    const site = await fixtures.site(a.api);
    const response = await a.api.delete(`/v1/sites/${site.id}`);
    expect(response.status).toBe(405);
    const meterWithData = await fixtures.meter(a.api, site.id);
    await a.api.post('/v1/measurements', { measurements: [{ meterId: meterWithData.id, timestamp: '2026-01-01T00:00:00.000Z', value: 1 }] });
    expect((await remove('deleteMeter', meterWithData.id)).body.errors[0].extensions.code).toBe('meter_in_use');
  });
});
