import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { create, fixtures } from '../support/fixtures.js';

describe('onboarding a balanced site in the order of the spec', () => {
  let app: TestApp;
  let acme: SignedUp;

  beforeAll(async () => {
    app = await startTestApp();
    acme = await app.signUp('Acme');
  });
  afterAll(() => app.close());

  it('walks site, product, customers, meters, contracts, contract meters and balancing settings, and reads it all over GraphQL', async () => {
    const api = acme.api;
    const site = await fixtures.site(api, { name: 'Mieterstrom Lindenhof', type: 'balanced_accurate' });
    const product = await create(api, '/v1/electricity-products', {
      name: 'Lindenhof Mieterstrom',
      description: 'Local PV first',
      prepaymentConfiguration: { cycle: 'monthly', dayOfMonth: 15 },
    });
    expect(product.prepaymentConfiguration).toEqual({ cycle: 'monthly', dayOfMonth: 15 });
    const customers = [];
    for (const lastName of ['Meyer', 'Schulz', 'Öztürk']) {
      customers.push(await create(api, '/v1/customers', { lastName, firstName: 'Kim', email: `${lastName.length}.${customers.length}@example.test`, address: { line1: 'Lindenhof 1', locality: 'Berlin', postCode: '10115', country: 'DE' } }));
    }
    const smgw = await fixtures.mpo(api);
    const virtualMpo = await create(api, '/v1/mpos', { channel: 'pseudo', provider: 'virtual', name: 'Virtual' });

    const producer = await fixtures.meter(api, site.id, { direction: 'producer', identifier: 'PV-1', mpoId: smgw.id, measuring: 'load_profile_accurate' });
    const consumers = [];
    for (const [index] of customers.entries()) {
      consumers.push(await fixtures.meter(api, site.id, { identifier: `CONS-${index + 1}`, serial: `SN-${index + 1}`, mpoId: smgw.id }));
    }
    const grid = await create(api, '/v1/meters', {
      siteId: site.id,
      mpoId: virtualMpo.id,
      direction: 'consumer',
      identifier: 'GRID',
      measuring: 'load_profile_accurate',
      startDate: '2026-01-01T00:00:00.000Z',
      grid: true,
      formula: [
        { type: 'aggregation', aggregation: 'sum_local_consumer' },
        { type: 'arithmetic', arithmetic: 'subtraction' },
        { type: 'meter', meterId: producer.id },
      ],
    });
    expect(grid).toMatchObject({ grid: true, formula: [{ aggregation: 'sum_local_consumer', customerId: null }, { arithmetic: 'subtraction' }, { meterId: producer.id }] });

    const contracts = [];
    for (const [index, customer] of customers.entries()) {
      const contract = await fixtures.contract(api, { customerId: customer.id, electricityProductId: product.id, siteId: site.id }, { number: `LH-${index + 1}` });
      await create(api, '/v1/contract-meters', { contractId: contract.id, siteId: site.id, meterId: consumers[index]!.id, startDate: '2026-01-01' });
      await create(api, '/v1/meter-balancing-settings', { siteId: site.id, meterId: consumers[index]!.id, balancing: 'participant', startDate: '2026-01-01', priority: null });
      contracts.push(contract);
    }
    const producerSetting = await create(api, '/v1/meter-balancing-settings', { siteId: site.id, meterId: producer.id, balancing: 'participant', startDate: '2026-01-01', priority: 1 });
    expect(producerSetting).toMatchObject({ balancing: 'participant', priority: 1, endDate: null });

    expect((await api.get(`/v1/meters?siteId=${site.id}`)).body.total).toBe(5);
    expect((await api.get(`/v1/contract-meters?siteId=${site.id}`)).body.total).toBe(3);
    expect((await api.get(`/v1/meter-balancing-settings?siteId=${site.id}`)).body.total).toBe(4);

    const graph = await api.graphql(
      `query($id: ID!) { site(id: $id) {
        name
        meters(limit: 20) { identifier grid contract { number customer { lastName } electricityProduct { name } } }
        contracts(limit: 20) { number meters(limit: 10) { identifier } }
        balancingSettings(limit: 20) { priority meter { identifier } }
      } }`,
      { id: site.id },
    );
    expect(graph.body.errors).toBeUndefined();
    const read = graph.body.data.site;
    expect(read.name).toBe('Mieterstrom Lindenhof');
    expect(read.meters.map((m: any) => [m.identifier, m.contract?.customer.lastName ?? null])).toEqual([
      ['PV-1', null],
      ['CONS-1', 'Meyer'],
      ['CONS-2', 'Schulz'],
      ['CONS-3', 'Öztürk'],
      ['GRID', null],
    ]);
    expect(read.meters[1].contract).toMatchObject({ number: 'LH-1', electricityProduct: { name: 'Lindenhof Mieterstrom' } });
    expect(read.contracts.map((c: any) => [c.number, c.meters.map((m: any) => m.identifier)])).toEqual([
      ['LH-1', ['CONS-1']],
      ['LH-2', ['CONS-2']],
      ['LH-3', ['CONS-3']],
    ]);
    expect(read.balancingSettings.map((s: any) => [s.meter.identifier, s.priority])).toEqual([
      ['CONS-1', null],
      ['CONS-2', null],
      ['CONS-3', null],
      ['PV-1', 1],
    ]);
    const customerGraph = await api.graphql('query($id: ID!) { customer(id: $id) { lastName contracts { number site { name } } } }', { id: customers[2]!.id });
    expect(customerGraph.body.data.customer).toEqual({ lastName: 'Öztürk', contracts: [{ number: 'LH-3', site: { name: 'Mieterstrom Lindenhof' } }] });
    expect((await api.get(`/v1/contracts/${contracts[0]!.id}`)).body).toMatchObject({ dunningBlock: false, startDate: '2026-01-01', endDate: null });
  });
});
