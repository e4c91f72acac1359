import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import type { Api } from '../support/http.js';

/** A complete seller profile as a client writes it (spaces and lower case are normalised). */
const profile = {
  companyName: 'Stadtwerke Musterstadt GmbH',
  address: { line1: 'Hauptstraße 1', locality: 'Musterstadt', postCode: '12345', country: 'DE' },
  vatId: 'DE 136 695 976',
  taxNumber: '21/815/08150',
  registerCourt: 'Amtsgericht Musterstadt',
  registerNumber: 'HRB 12345',
  managingDirectors: ['Erika Mustermann', 'Max Mustermann'],
  contact: { email: 'service@stadtwerke.test', phone: '+49 30 123456', website: 'www.stadtwerke.test' },
  bankAccount: { accountHolder: 'Stadtwerke Musterstadt GmbH', iban: 'DE89 3704 0044 0532 0130 00', bic: 'cobadeffxxx' },
  sepaCreditorId: 'de98 zzz 09999999999',
  disputeResolutionText: 'Beschwerden richten Sie an service@stadtwerke.test.',
};

/** The profile as the API shows it. */
const stored = {
  companyName: 'Stadtwerke Musterstadt GmbH',
  address: { line1: 'Hauptstraße 1', line2: null, line3: null, line4: null, locality: 'Musterstadt', postCode: '12345', country: 'DE' },
  vatId: 'DE136695976',
  taxNumber: '21/815/08150',
  registerCourt: 'Amtsgericht Musterstadt',
  registerNumber: 'HRB 12345',
  managingDirectors: ['Erika Mustermann', 'Max Mustermann'],
  contact: { email: 'service@stadtwerke.test', phone: '+49 30 123456', website: 'www.stadtwerke.test' },
  bankAccount: { accountHolder: 'Stadtwerke Musterstadt GmbH', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
  sepaCreditorId: 'DE98ZZZ09999999999',
  disputeResolutionText: 'Beschwerden richten Sie an service@stadtwerke.test.',
};

const emptyProfile = {
  address: null,
  vatId: null,
  taxNumber: null,
  registerCourt: null,
  registerNumber: null,
  managingDirectors: [],
  contact: { email: null, phone: null, website: null },
  bankAccount: null,
  sepaCreditorId: null,
  disputeResolutionText: null,
};

const ACCOUNT_FIELDS = `id companyName timezone currency vatId taxNumber registerCourt registerNumber managingDirectors sepaCreditorId disputeResolutionText createdAt updatedAt
  address { line1 line2 line3 line4 locality postCode country }
  contact { email phone website }
  bankAccount { accountHolder iban bic }`;

describe('the account’s seller legal profile', () => {
  let app: TestApp;
  let a: SignedUp;
  let b: SignedUp;
  let viewer: Api;

  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
    a = await app.signUp('A', { legalProfile: false });
    b = await app.signUp('B', { legalProfile: false });
    const credentials = await app.cli('user', 'create', '--account', a.accountId, '--email', 'viewer@a.test', '--role', 'viewer');
    viewer = app.api((await app.api().post('/v1/oauth', { grantType: 'api_token', token: credentials.apiToken })).body.accessToken);
  });
  afterAll(() => app.close());

  const accountOf = async (owner: SignedUp) => (await owner.api.get(`/v1/accounts/${owner.accountId}`)).body;
  const accountEvents = async (owner: SignedUp) => (await owner.api.get('/v1/events?type=account.updated&limit=1000')).body.data;

  it('starts empty, takes a full profile (normalised) and reads it back, recording account.updated', async () => {
    const c = await app.signUp('Stadtwerke', { legalProfile: false });
    const before = await accountOf(c);
    expect(before).toEqual({ id: c.accountId, companyName: 'Stadtwerke', timezone: 'Europe/Berlin', currency: 'EUR', ...emptyProfile, createdAt: expect.any(String), updatedAt: expect.any(String) });
    expect(await accountEvents(c)).toEqual([]);

    const response = await c.api.patch(`/v1/accounts/${c.accountId}`, profile);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toEqual({ ...before, ...stored, updatedAt: expect.any(String) });
    expect(Date.parse(response.body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(before.updatedAt));
    expect(await accountOf(c)).toEqual(response.body.data);

    const events = await accountEvents(c);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'account.updated', accountId: c.accountId, userId: c.userId, siteIds: [], data: response.body.data });
  });

  it('patches as a JSON merge patch: absent fields stay, objects merge key by key, null clears, lists are replaced', async () => {
    const c = await app.signUp('Merge', { legalProfile: false });
    await c.api.patch(`/v1/accounts/${c.accountId}`, profile);
    const before = await accountOf(c);

    const phone = await c.api.patch(`/v1/accounts/${c.accountId}`, { contact: { phone: '+49 30 999' } });
    expect(phone.body.data).toEqual({ ...before, contact: { ...stored.contact, phone: '+49 30 999' }, updatedAt: expect.any(String) });

    const bank = await c.api.patch(`/v1/accounts/${c.accountId}`, { bankAccount: { bic: null }, address: { line2: 'Haus B' } });
    expect(bank.body.data.bankAccount).toEqual({ ...stored.bankAccount, bic: null });
    expect(bank.body.data.address).toEqual({ ...stored.address, line2: 'Haus B' });

    const cleared = await c.api.patch(`/v1/accounts/${c.accountId}`, { disputeResolutionText: null, vatId: null, managingDirectors: ['Erika Mustermann'], contact: null });
    expect(cleared.body.data).toMatchObject({
      disputeResolutionText: null,
      vatId: null,
      taxNumber: stored.taxNumber,
      managingDirectors: ['Erika Mustermann'],
      contact: { email: null, phone: null, website: null },
      sepaCreditorId: stored.sepaCreditorId,
      companyName: stored.companyName,
    });

    // Echoing the read-only fields unchanged is fine; an empty patch changes nothing but updatedAt.
    const { id, createdAt, timezone, currency } = cleared.body.data;
    const echoed = await c.api.patch(`/v1/accounts/${c.accountId}`, { id, createdAt, timezone, currency });
    expect(echoed.status).toBe(200);
    expect(echoed.body.data).toEqual({ ...cleared.body.data, updatedAt: expect.any(String) });
    expect((await c.api.patch(`/v1/accounts/${c.accountId}`, { bankAccount: null })).body.data.bankAccount).toBeNull();
    expect((await accountEvents(c)).map((e: { type: string }) => e.type)).toEqual(Array(6).fill('account.updated'));
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['a VAT id with a wrong check digit', { vatId: 'DE136695975' }, 'vatId', 'invalid_check_digit'],
    ['a VAT id of eight digits', { vatId: 'DE13669597' }, 'vatId', 'invalid_format'],
    ['a foreign VAT id', { vatId: 'ATU12345678' }, 'vatId', 'invalid_format'],
    ['a tax number with letters', { taxNumber: 'St-Nr 12' }, 'taxNumber', 'invalid_format'],
    ['a tax number of 21 digits', { taxNumber: '1'.repeat(21) }, 'taxNumber', 'invalid_format'],
    ['a creditor id with wrong check digits', { sepaCreditorId: 'DE97ZZZ09999999999' }, 'sepaCreditorId', 'invalid_check_digit'],
    ['a creditor id too short', { sepaCreditorId: 'DE98ZZZ0999' }, 'sepaCreditorId', 'invalid_format'],
    ['an IBAN with a wrong checksum', { bankAccount: { iban: 'DE89 3704 0044 0532 0130 01' } }, 'bankAccount.iban', 'invalid_iban'],
    ['a bank account without IBAN', { bankAccount: { accountHolder: 'X' } }, 'bankAccount.iban', 'required'],
    ['a bad BIC', { bankAccount: { iban: 'DE89370400440532013000', bic: 'XX' } }, 'bankAccount.bic', 'invalid_bic'],
    ['an unknown bank account field', { bankAccount: { iban: 'DE89370400440532013000', mandate: 'M-1' } }, 'bankAccount.mandate', 'unknown_field'],
    ['a bad contact e-mail', { contact: { email: 'not-an-email' } }, 'contact.email', 'invalid_format'],
    ['a bad website', { contact: { website: 'not a website' } }, 'contact.website', 'invalid_website'],
    ['an address without post code', { address: { locality: 'Berlin', country: 'DE' } }, 'address.postCode', 'required'],
    ['an unknown country', { address: { locality: 'Berlin', postCode: '10115', country: 'XX' } }, 'address.country', 'invalid_country'],
    ['an empty managing director', { managingDirectors: ['Erika', ''] }, 'managingDirectors[1]', 'too_small'],
    ['managing directors as text', { managingDirectors: 'Erika' }, 'managingDirectors', 'invalid_type'],
    ['a null company name', { companyName: null }, 'companyName', 'not_nullable'],
    ['an empty company name', { companyName: ' ' }, 'companyName', 'too_small'],
    ['a dispute resolution text too long', { disputeResolutionText: 'x'.repeat(2001) }, 'disputeResolutionText', 'too_big'],
    ['a changed timezone', { timezone: 'Europe/London' }, 'timezone', 'field_read_only'],
    ['a changed currency', { currency: 'CHF' }, 'currency', 'field_read_only'],
    ['a changed id', { id: '00000000-0000-4000-8000-000000000000' }, 'id', 'field_read_only'],
    ['an unknown field', { iban: 'DE89370400440532013000' }, 'iban', 'unknown_field'],
  ])('refuses %s with 400 and changes nothing', async (_name, patch, path, code) => {
    const before = await accountOf(b);
    const events = (await accountEvents(b)).length;
    const response = await b.api.patch(`/v1/accounts/${b.accountId}`, patch);
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(response.body.errors.map((e: { path: string; code: string }) => [e.path, e.code])).toContainEqual([path, code]);
    expect(await accountOf(b)).toEqual(before);
    expect(await accountEvents(b)).toHaveLength(events);
  });

  it('reports every invalid field of one patch', async () => {
    const response = await b.api.patch(`/v1/accounts/${b.accountId}`, { vatId: 'DE136695975', sepaCreditorId: 'DE97ZZZ09999999999', taxNumber: 'x' });
    expect(response.body.errors.map((e: { path: string; code: string }) => [e.path, e.code])).toEqual([
      ['vatId', 'invalid_check_digit'],
      ['taxNumber', 'invalid_format'],
      ['sepaCreditorId', 'invalid_check_digit'],
    ]);
  });

  it('refuses viewers with 403 and other accounts with 404, over REST and GraphQL, writing nothing', async () => {
    const before = await accountOf(a);
    const events = (await accountEvents(a)).length;
    const refused = await viewer.patch(`/v1/accounts/${a.accountId}`, { registerCourt: 'Amtsgericht X' });
    expect([refused.status, refused.body.code]).toEqual([403, 'forbidden']);
    expect((await viewer.get(`/v1/accounts/${a.accountId}`)).body).toEqual(before);
    const foreign = await b.api.patch(`/v1/accounts/${a.accountId}`, { registerCourt: 'Amtsgericht X' });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'account_not_found']);
    const unknown = await a.api.patch('/v1/accounts/00000000-0000-4000-8000-000000000000', { registerCourt: 'Amtsgericht X' });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'account_not_found']);
    expect((await a.api.patch('/v1/accounts/not-a-uuid', {})).status).toBe(404);

    const mutation = 'mutation($id: ID!) { updateAccount(id: $id, input: { registerCourt: "Amtsgericht X" }) { id registerCourt } }';
    expect((await viewer.graphql(mutation, { id: a.accountId })).body.errors[0].extensions.code).toBe('forbidden');
    expect((await b.api.graphql(mutation, { id: a.accountId })).body.errors[0].extensions.code).toBe('account_not_found');
    expect(await accountOf(a)).toEqual(before);
    expect(await accountEvents(a)).toHaveLength(events);
  });

  it('documents PATCH /v1/accounts/{id} in the OpenAPI document and account.updated among the webhook events', async () => {
    const document = (await app.api().get('/v1/openapi.json')).body;
    const patch = document.paths['/v1/accounts/{id}'].patch;
    expect(patch.operationId).toBe('updateAccount');
    expect(Object.keys(patch.responses).sort()).toEqual(['200', '400', '401', '403', '404', '413', '415', '429']);
    const body = document.components.schemas[patch.requestBody.content['application/json'].schema.$ref.replace('#/components/schemas/', '')];
    expect(Object.keys(body.properties)).toEqual(
      expect.arrayContaining(['companyName', 'address', 'vatId', 'taxNumber', 'registerCourt', 'registerNumber', 'managingDirectors', 'contact', 'bankAccount', 'sepaCreditorId', 'disputeResolutionText']),
    );
    const endpoint = await a.api.post('/v1/webhook-endpoints', { url: 'https://hooks.example.com/account', events: ['account.updated'] });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
  });

  describe('GraphQL', () => {
    it('sets the full profile with updateAccount and reads it back with account', async () => {
      const c = await app.signUp('GraphQL', { legalProfile: false });
      const updated = await c.api.graphql(`mutation($id: ID!, $input: AccountInput!) { updateAccount(id: $id, input: $input) { ${ACCOUNT_FIELDS} } }`, { id: c.accountId, input: profile });
      expect(updated.body.errors).toBeUndefined();
      const rest = await accountOf(c);
      expect(rest).toMatchObject(stored);
      expect(updated.body.data.updateAccount).toEqual(rest);
      const read = await c.api.graphql(`query($id: ID!) { account(id: $id) { ${ACCOUNT_FIELDS} } }`, { id: c.accountId });
      expect(read.body.data.account).toEqual(rest);

      const merged = await c.api.graphql(`mutation($id: ID!) { updateAccount(id: $id, input: { contact: { website: null }, disputeResolutionText: null }) { ${ACCOUNT_FIELDS} } }`, { id: c.accountId });
      expect(merged.body.data.updateAccount).toEqual({ ...rest, contact: { ...stored.contact, website: null }, disputeResolutionText: null, updatedAt: expect.any(String) });

      const events = await accountEvents(c);
      expect(events.map((e: { type: string; userId: string }) => [e.type, e.userId])).toEqual([
        ['account.updated', c.userId],
        ['account.updated', c.userId],
      ]);
      expect(events[1].data).toEqual(await accountOf(c));
    });

    it('reports invalid fields with the REST codes and paths', async () => {
      const before = await accountOf(b);
      const response = await b.api.graphql(
        `mutation($id: ID!) { updateAccount(id: $id, input: { vatId: "DE136695975", sepaCreditorId: "DE98ZZZ0999", bankAccount: { iban: "DE00 1234" } }) { id } }`,
        { id: b.accountId },
      );
      const [error] = response.body.errors;
      expect(error.extensions.code).toBe('validation_failed');
      expect(error.extensions.errors.map((e: { path: string; code: string }) => [e.path, e.code])).toEqual([
        ['vatId', 'invalid_check_digit'],
        ['bankAccount.iban', 'invalid_iban'],
        ['sepaCreditorId', 'invalid_format'],
      ]);
      expect(await accountOf(b)).toEqual(before);
    });
  });
});
