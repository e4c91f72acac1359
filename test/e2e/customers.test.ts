import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { address, create, expectRejected, fixtures } from '../support/fixtures.js';

describe('customers, products, custom attributes, accounts and users', () => {
  let app: TestApp;
  let a: SignedUp;
  let b: SignedUp;

  beforeAll(async () => {
    app = await startTestApp();
    a = await app.signUp('A', { legalProfile: false });
    b = await app.signUp('B');
  });
  afterAll(() => app.close());

  it('creates customers with every field and rejects each removed field naming its replacement', async () => {
    const full = {
      companyName: 'Hausverwaltung Nord GmbH',
      address: { line1: 'Hauptstr. 1', ...address },
      deliveryAddress: { line2: 'Hinterhaus', ...address },
      invoiceEmail: 'billing@nord.test',
      email: 'info@nord.test',
      number: 'K-100',
      salutation: 'Frau',
      title: 'Dr.',
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone1: '+49 30 1234',
      phone2: '+49 170 1234',
    };
    const customer = await create(a.api, '/v1/customers', full);
    expect(customer).toMatchObject({ ...full, address: { ...full.address, line2: null }, customAttributes: {} });
    const removed: Record<string, string> = {
      siteId: 'contracts',
      type: 'companyName',
      customerNumber: 'number',
      billingEmail: 'invoiceEmail',
      person: 'firstName',
      shippingAddress: 'deliveryAddress',
      billingAddress: 'address',
    };
    for (const [field, replacement] of Object.entries(removed)) {
      const body = await expectRejected(a.api, { path: '/v1/customers', body: { lastName: 'X', [field]: 'x' } }, { status: 400, code: 'field_removed', path: field });
      expect(body.errors[0].message).toContain(replacement);
    }
    await expectRejected(a.api, { path: '/v1/customers', body: { firstName: 'Only' } }, { status: 400, code: 'company_name_or_last_name_required', path: 'companyName' });
    await expectRejected(a.api, { path: '/v1/customers', body: { lastName: 'X', email: 'not-an-email' } }, { status: 400, code: 'invalid_format', path: 'email' });
    await expectRejected(a.api, { path: '/v1/customers', body: { lastName: 'X', number: 'K-100' } }, { status: 409, code: 'customer_number_taken' });
    expect((await b.api.post('/v1/customers', { lastName: 'X', number: 'K-100' })).status).toBe(201);
    const patched = await a.api.patch(`/v1/customers/${customer.id}`, { email: null, deliveryAddress: null });
    expect(patched.body.data).toMatchObject({ email: null, deliveryAddress: null, invoiceEmail: 'billing@nord.test' });
  });

  it('validates electricity products and their prepayment configuration', async () => {
    await expectRejected(a.api, { path: '/v1/electricity-products', body: { name: 'P', prepaymentCycle: 'monthly' } }, { status: 400, code: 'field_removed', path: 'prepaymentCycle' });
    await expectRejected(a.api, { path: '/v1/electricity-products', body: { name: 'P', prepaymentConfiguration: { cycle: 'monthly', dayOfMonth: 29 } } }, { status: 400, code: 'too_big', path: 'prepaymentConfiguration.dayOfMonth' });
    await expectRejected(a.api, { path: '/v1/electricity-products', body: { name: 'P', prepaymentConfiguration: { cycle: 'weekly', dayOfMonth: 1 } } }, { status: 400, code: 'invalid_value', path: 'prepaymentConfiguration.cycle' });
    const product = await create(a.api, '/v1/electricity-products', { name: 'P', prepaymentConfiguration: { cycle: 'quarterly', dayOfMonth: 1 } });
    expect(product).toMatchObject({ name: 'P', description: null, prepaymentConfiguration: { cycle: 'quarterly', dayOfMonth: 1 } });
    const patched = await a.api.patch(`/v1/electricity-products/${product.id}`, { prepaymentConfiguration: { dayOfMonth: 28 } });
    expect(patched.body.data.prepaymentConfiguration).toEqual({ cycle: 'quarterly', dayOfMonth: 28 });
    expect((await a.api.patch(`/v1/electricity-products/${product.id}`, { prepaymentConfiguration: null })).body.data.prepaymentConfiguration).toBeNull();
  });

  it('types custom attribute values, shows every defined key with a null default, and guards definitions', async () => {
    const older = await fixtures.customer(a.api);
    const definitions = {
      tenantSince: 'date',
      floor: 'number',
      vip: 'boolean',
      note: 'text',
      movedInAt: 'date_time',
    };
    for (const [name, type] of Object.entries(definitions)) {
      await create(a.api, '/v1/custom-attributes', { title: name, name, entity: 'customer', type });
    }
    await expectRejected(a.api, { path: '/v1/custom-attributes', body: { title: 'Floor', name: 'floor', entity: 'customer', type: 'text' } }, { status: 409, code: 'custom_attribute_exists' });
    await create(a.api, '/v1/custom-attributes', { title: 'Floor', name: 'floor', entity: 'meter', type: 'text' });

    expect((await a.api.get(`/v1/customers/${older.id}`)).body.customAttributes).toEqual({ tenantSince: null, floor: null, vip: null, note: null, movedInAt: null });
    const bad: Array<[string, unknown]> = [
      ['tenantSince', '2026-13-01'],
      ['floor', '3'],
      ['vip', 'yes'],
      ['note', 5],
      ['movedInAt', '2026-01-01T00:00:00Z'],
    ];
    for (const [key, value] of bad) {
      await expectRejected(a.api, { path: '/v1/customers', body: { lastName: 'X', customAttributes: { [key]: value } } }, { status: 400, code: 'custom_attribute_invalid', path: `customAttributes.${key}` });
    }
    await expectRejected(a.api, { path: '/v1/customers', body: { lastName: 'X', customAttributes: { shoeSize: 42 } } }, { status: 400, code: 'custom_attribute_not_defined', path: 'customAttributes.shoeSize' });
    const values = { tenantSince: '2020-02-29', floor: 3, vip: true, note: 'Keys at the office', movedInAt: '2020-02-29T09:30:00.000Z' };
    const customer = await create(a.api, '/v1/customers', { lastName: 'X', customAttributes: values });
    expect(customer.customAttributes).toEqual(values);

    const onlyAttributes = await a.api.patch(`/v1/customers/${customer.id}`, { customAttributes: { floor: 4, note: null } });
    expect(onlyAttributes.body.data.customAttributes).toEqual({ ...values, floor: 4, note: null });

    const list = (await a.api.get('/v1/custom-attributes?entity=customer')).body;
    expect(list.total).toBe(5);
    const floor = list.data.find((d: { name: string }) => d.name === 'floor');
    const typeChange = await a.api.patch(`/v1/custom-attributes/${floor.id}`, { type: 'text' });
    expect([typeChange.status, typeChange.body.code]).toEqual([409, 'custom_attribute_in_use']);
    const rename = await a.api.patch(`/v1/custom-attributes/${floor.id}`, { name: 'storey' });
    expect(rename.body.errors).toEqual([{ path: 'name', code: 'field_read_only', message: expect.any(String) }]);
    expect((await a.api.patch(`/v1/custom-attributes/${floor.id}`, { title: 'Storey', name: 'floor' })).body.data.title).toBe('Storey');
    expect((await b.api.get(`/v1/customers/${customer.id}`)).status).toBe(404);
    expect((await b.api.get('/v1/custom-attributes')).body.total).toBe(0);
  });

  it('shows the own account and its users, never another account', async () => {
    const account = await a.api.get(`/v1/accounts/${a.accountId}`);
    expect(account.body).toEqual({
      id: a.accountId,
      companyName: 'A',
      timezone: 'Europe/Berlin',
      currency: 'EUR',
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
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await a.api.get(`/v1/accounts/${b.accountId}`)).status).toBe(404);
    const users = await a.api.get('/v1/users');
    expect(users.body.data).toEqual([
      { id: a.userId, firstName: null, lastName: null, phone1: null, phone2: null, email: expect.stringContaining('@'), role: 'admin', createdAt: expect.any(String), updatedAt: expect.any(String) },
    ]);
    expect(JSON.stringify(users.body)).not.toContain('ebbs_api_');
    expect((await a.api.get(`/v1/users/${b.userId}`)).status).toBe(404);
    expect((await a.api.get(`/v1/users/${a.userId}`)).body.role).toBe('admin');
  });
});
