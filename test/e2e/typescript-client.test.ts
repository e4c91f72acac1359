import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_FILE, typesOf } from '../../clients/typescript/generate.js';
import { ebbsClient, type Schemas } from '../../clients/typescript/index.js';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';

describe('the TypeScript client in clients/typescript', () => {
  let app: TestApp;
  let a: SignedUp;

  beforeAll(async () => {
    app = await startTestApp();
    a = await app.signUp('Client GmbH');
  });
  afterAll(() => app.close());

  it('is generated from the document the server serves (npm run client:generate)', async () => {
    const document = (await a.api.get('/v1/openapi.json')).body;
    expect(await readFile(SCHEMA_FILE, 'utf8'), 'clients/typescript/schema.ts is stale: run npm run client:generate').toBe(await typesOf(document));
  });

  it('onboards a site with a meter, a customer, a product and a contract, typed from end to end', async () => {
    const client = ebbsClient(app.url, a.accessToken);
    const address: Schemas['AddressInput'] = { line1: 'Hofweg 1', locality: 'Berlin', postCode: '10115', country: 'DE' };

    const site = await client.POST('/v1/sites', { body: { name: 'Hof', type: 'balanced_accurate', address } });
    expect(site.response.status).toBe(201);
    const siteId: string = site.data!.id;
    const meter = await client.POST('/v1/meters', {
      body: { siteId, direction: 'consumer', identifier: '1EMH-CLIENT', measuring: 'load_profile_accurate', startDate: '2026-01-01T00:00:00.000Z' },
    });
    expect(meter.data).toMatchObject({ siteId, direction: 'consumer' });
    const customer = await client.POST('/v1/customers', { body: { lastName: 'Meyer', address } });
    const product = await client.POST('/v1/electricity-products', { body: { name: 'Mieterstrom' } });
    const contract = await client.POST('/v1/contracts', {
      body: { customerId: customer.data!.id, electricityProductId: product.data!.id, siteId, dunningBlock: false, startDate: '2026-01-01', number: 'K-1' },
    });
    expect(contract.response.status).toBe(201);
    await client.POST('/v1/contract-meters', { body: { contractId: contract.data!.id, siteId, meterId: meter.data!.id, startDate: '2026-01-01' } });

    const read = await client.GET('/v1/sites/{id}', { params: { path: { id: siteId } } });
    const seen: Schemas['Site'] = read.data!;
    expect(seen).toMatchObject({ id: siteId, name: 'Hof', allocationKey: 'priority' });
    const patched = await client.PATCH('/v1/sites/{id}', { params: { path: { id: siteId } }, body: { name: 'Hof Nord' } });
    expect(patched.data!.data.name).toBe('Hof Nord');
    const contracts = await client.GET('/v1/contracts', { params: { query: { limit: 10 } } });
    expect(contracts.data!.total).toBe(1);

    // A refusal is the typed problem, not an exception.
    const refused = await client.POST('/v1/sites', { body: { name: '', type: 'balanced_accurate', address } });
    const problem: Schemas['Problem'] | undefined = refused.error;
    expect(refused.response.status).toBe(400);
    expect(problem).toMatchObject({ code: 'validation_failed', errors: [expect.objectContaining({ path: 'name' })] });
  });
});
