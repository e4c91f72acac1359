import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printGraphQLSchema } from '../../graphql/schema.js';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';

const SITE_FIELDS = 'id name type balanceResolution allocationKey allocationKeyValidFrom address { line1 line2 line3 line4 locality postCode country } customAttributes createdAt updatedAt';
const input = { name: 'Quartier Nord', type: 'balanced_inaccurate', address: { locality: 'Hamburg', postCode: '20095', country: 'DE' } };

describe('GraphQL', () => {
  let app: TestApp;
  let a: SignedUp;
  let b: SignedUp;

  beforeAll(async () => {
    app = await startTestApp();
    a = await app.signUp('Acme');
    b = await app.signUp('Other');
  });
  afterAll(() => app.close());

  it('keeps graphql/schema.graphql in step with the code (npm run graphql:schema)', async () => {
    expect(await readFile(new URL('../../graphql/schema.graphql', import.meta.url), 'utf8')).toBe(await printGraphQLSchema());
  });

  it('reads a site created over REST exactly as REST shows it', async () => {
    const rest = (await a.api.post('/v1/sites', input)).body;
    const response = await a.api.graphql(`query($id: ID!) { site(id: $id) { ${SITE_FIELDS} } }`, { id: rest.id });
    expect(response.status).toBe(200);
    expect(response.body.data.site).toEqual(rest);
  });

  it('creates, updates and lists sites through the same core service', async () => {
    const created = await a.api.graphql(`mutation($input: SiteInput!) { createSite(input: $input) { ${SITE_FIELDS} } }`, { input });
    const site = created.body.data.createSite;
    expect(site).toMatchObject({ ...input, balanceResolution: 'P1M', customAttributes: {} });
    const updated = await a.api.graphql(`mutation($id: ID!, $input: SiteInput!) { updateSite(id: $id, input: $input) { name address { locality postCode } } }`, {
      id: site.id,
      input: { name: 'Quartier Süd', address: { locality: 'Altona' } },
    });
    expect(updated.body.data.updateSite).toEqual({ name: 'Quartier Süd', address: { locality: 'Altona', postCode: '20095' } });
    expect((await a.api.get(`/v1/sites/${site.id}`)).body.name).toBe('Quartier Süd');
    const list = await a.api.graphql('{ sites(limit: 1, offset: 0) { total data { id } } }');
    expect(list.body.data.sites).toEqual({ total: 2, data: [{ id: expect.any(String) }] });
  });

  it('reports validation errors with the same codes as REST', async () => {
    const response = await a.api.graphql('mutation($input: SiteInput!) { createSite(input: $input) { id } }', {
      input: { name: 'X', type: 'balanced_accurate', balanceResolution: 'P1M', address: { locality: 'Berlin', country: 'DE' } },
    });
    const [error] = response.body.errors;
    expect(error.extensions.code).toBe('validation_failed');
    expect(error.extensions.errors.map((e: { path: string; code: string }) => [e.path, e.code])).toEqual([
      ['address.postCode', 'required'],
    ]);
    const mismatch = await a.api.graphql('mutation($input: SiteInput!) { createSite(input: $input) { id } }', {
      input: { ...input, type: 'balanced_accurate', balanceResolution: 'P1M' },
    });
    expect(mismatch.body.errors[0].extensions.errors).toEqual([{ path: 'balanceResolution', code: 'resolution_mismatch', message: expect.any(String) }]);
  });

  it("scopes to the caller's account", async () => {
    const site = (await a.api.post('/v1/sites', input)).body;
    const response = await b.api.graphql('query($id: ID!) { site(id: $id) { id } }', { id: site.id });
    expect(response.body.errors[0].extensions.code).toBe('site_not_found');
    const update = await b.api.graphql('mutation($id: ID!) { updateSite(id: $id, input: { name: "Stolen" }) { id } }', { id: site.id });
    expect(update.body.errors[0].extensions.code).toBe('site_not_found');
    expect((await a.api.get(`/v1/sites/${site.id}`)).body.name).toBe(input.name);
    expect((await b.api.graphql('{ sites { total } }')).body.data.sites.total).toBe(0);
  });

  it('needs the same bearer token as REST', async () => {
    const response = await app.api().graphql('{ sites { total } }');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('invalid_token');
  });

  it('lets a viewer read and refuses its writes with forbidden', async () => {
    const viewer = await app.cli('user', 'create', '--account', a.accountId, '--email', 'viewer@acme.test', '--role', 'viewer');
    const grant = await app.api().post('/v1/oauth', { grantType: 'api_token', token: viewer.apiToken });
    const api = app.api(grant.body.accessToken);
    expect((await api.graphql('{ sites { total } }')).body.data.sites.total).toBeGreaterThan(0);
    const mutation = await api.graphql('mutation($input: SiteInput!) { createSite(input: $input) { id } }', { input });
    expect(mutation.body.errors[0].extensions.code).toBe('forbidden');
    const rest = await api.post('/v1/sites', input);
    expect([rest.status, rest.body.code]).toEqual([403, 'forbidden']);
  });
});

describe('GraphQL mutations of the master data', () => {
  let app: TestApp;
  let a: SignedUp;

  beforeAll(async () => {
    app = await startTestApp();
    a = await app.signUp('Acme');
  });
  afterAll(() => app.close());

  it('onboards through mutations with the same rules and codes as REST', async () => {
    const site = (await a.api.graphql('mutation { createSite(input: { name: "S", type: balanced_accurate, address: { locality: "Bonn", postCode: "53111", country: "DE" } }) { id } }')).body.data.createSite;
    const product = (await a.api.graphql('mutation { createElectricityProduct(input: { name: "P", prepaymentConfiguration: { cycle: monthly, dayOfMonth: 1 } }) { id prepaymentConfiguration { cycle } } }')).body.data
      .createElectricityProduct;
    expect(product.prepaymentConfiguration).toEqual({ cycle: 'monthly' });
    const customer = (await a.api.graphql('mutation { createCustomer(input: { lastName: "Kim" }) { id } }')).body.data.createCustomer;
    const meterInput = { siteId: site.id, direction: 'consumer', identifier: 'M1', measuring: 'readings_accurate', startDate: '2026-01-01T00:00:00.000Z' };
    const meter = await a.api.graphql('mutation($input: MeterInput!) { createMeter(input: $input) { id identifier site { id } } }', { input: meterInput });
    expect(meter.body.data.createMeter.site.id).toBe(site.id);
    const duplicate = await a.api.graphql('mutation($input: MeterInput!) { createMeter(input: $input) { id } }', { input: meterInput });
    expect(duplicate.body.errors[0].extensions.code).toBe('meter_identifier_taken');
    const contract = await a.api.graphql('mutation($input: ContractInput!) { createContract(input: $input) { id customer { lastName } } }', {
      input: { customerId: customer.id, electricityProductId: product.id, siteId: site.id, dunningBlock: false, startDate: '2026-01-01', number: 'G-1' },
    });
    expect(contract.body.data.createContract.customer.lastName).toBe('Kim');
    const assignment = await a.api.graphql('mutation($input: ContractMeterInput!) { createContractMeter(input: $input) { meter { identifier } contract { number } } }', {
      input: { contractId: contract.body.data.createContract.id, siteId: site.id, meterId: meter.body.data.createMeter.id, startDate: '2026-01-01' },
    });
    expect(assignment.body.data.createContractMeter).toEqual({ meter: { identifier: 'M1' }, contract: { number: 'G-1' } });
    const setting = await a.api.graphql('mutation($input: MeterBalancingSettingInput!) { createMeterBalancingSetting(input: $input) { priority meter { identifier } } }', {
      input: { siteId: site.id, meterId: meter.body.data.createMeter.id, balancing: 'participant', startDate: '2026-01-01', priority: 3 },
    });
    expect(setting.body.data.createMeterBalancingSetting).toEqual({ priority: 3, meter: { identifier: 'M1' } });
    const removed = await a.api.graphql('mutation { createMpo(input: { channel: "pseudo", provider: "virtual", name: "V" }) { id } }');
    expect(removed.body.data.createMpo.id).toEqual(expect.any(String));
    const account = await a.api.graphql('query($id: ID!) { account(id: $id) { companyName timezone } users { total } }', { id: a.accountId });
    expect(account.body.data).toEqual({ account: { companyName: 'Acme', timezone: 'Europe/Berlin' }, users: { total: 1 } });
  });
});
