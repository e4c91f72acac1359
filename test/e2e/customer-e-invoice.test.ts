import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { baseFeeContractOf, waitForRun } from '../support/billing.js';
import { create, expectRejected, fixtures } from '../support/fixtures.js';
import { attachmentsOf, extractPages } from '../support/pdf.js';

const CUSTOMER_FIELDS = 'id vatId buyerReference invoiceFormat';

describe('a customer’s VAT id, buyer reference and invoice format', () => {
  let app: TestApp;
  let a: SignedUp;

  beforeAll(async () => {
    app = await startTestApp();
    a = await app.signUp('E-Invoice Customers');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('sets, reads and patches them over REST, normalising the VAT id', async () => {
    const plain = await fixtures.customer(a.api);
    expect(plain).toMatchObject({ vatId: null, buyerReference: null, invoiceFormat: 'pdf' });

    const business = await fixtures.customer(a.api, { companyName: 'Stadtverwaltung Musterstadt', vatId: 'de 136 695 976', buyerReference: '  04011000-12345-03 ', invoiceFormat: 'xrechnung' });
    expect(business).toMatchObject({ vatId: 'DE136695976', buyerReference: '04011000-12345-03', invoiceFormat: 'xrechnung' });
    expect((await a.api.get(`/v1/customers/${business.id}`)).body).toMatchObject({ vatId: 'DE136695976', buyerReference: '04011000-12345-03', invoiceFormat: 'xrechnung' });

    const patched = await a.api.patch(`/v1/customers/${business.id}`, { vatId: 'atu13585627', invoiceFormat: 'facturx' });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data).toMatchObject({ vatId: 'ATU13585627', buyerReference: '04011000-12345-03', invoiceFormat: 'facturx' });

    const cleared = await a.api.patch(`/v1/customers/${business.id}`, { vatId: null, buyerReference: null, invoiceFormat: null });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body.data).toMatchObject({ vatId: null, buyerReference: null, invoiceFormat: 'pdf' });
  });

  it('refuses invalid values with 400, code and path', async () => {
    const customers = { path: '/v1/customers' };
    await expectRejected(a.api, { ...customers, body: { lastName: 'X', vatId: 'DE136695977' } }, { status: 400, code: 'invalid_check_digit', path: 'vatId' });
    await expectRejected(a.api, { ...customers, body: { lastName: 'X', vatId: 'DE12345' } }, { status: 400, code: 'invalid_format', path: 'vatId' });
    await expectRejected(a.api, { ...customers, body: { lastName: 'X', vatId: '123456789' } }, { status: 400, code: 'invalid_format', path: 'vatId' });
    await expectRejected(a.api, { ...customers, body: { lastName: 'X', vatId: 'FR1234567890123' } }, { status: 400, code: 'invalid_format', path: 'vatId' });
    await expectRejected(a.api, { ...customers, body: { lastName: 'X', buyerReference: 'x'.repeat(201) } }, { status: 400, code: 'too_big', path: 'buyerReference' });
    await expectRejected(a.api, { ...customers, body: { lastName: 'X', invoiceFormat: 'ubl' } }, { status: 400, code: 'invalid_value', path: 'invoiceFormat' });
    const customer = await fixtures.customer(a.api);
    await expectRejected(
      a.api,
      { method: 'PATCH', path: `/v1/customers/${customer.id}`, body: { vatId: 'DE 136 695 970' }, collection: '/v1/customers' },
      { status: 400, code: 'invalid_check_digit', path: 'vatId' },
    );
  });

  it('sets, reads and patches them over GraphQL', async () => {
    const created = await a.api.graphql(`mutation($input: CustomerInput!) { createCustomer(input: $input) { ${CUSTOMER_FIELDS} } }`, {
      input: { companyName: 'Land Musterland', vatId: 'DE136695976', buyerReference: '991-01234-44' },
    });
    expect(created.body.errors).toBeUndefined();
    const customer = created.body.data.createCustomer;
    expect(customer).toMatchObject({ vatId: 'DE136695976', buyerReference: '991-01234-44', invoiceFormat: 'pdf' });

    const updated = await a.api.graphql(`mutation($id: ID!, $input: CustomerInput!) { updateCustomer(id: $id, input: $input) { ${CUSTOMER_FIELDS} } }`, {
      id: customer.id,
      input: { invoiceFormat: 'xrechnung', buyerReference: null },
    });
    expect(updated.body.errors).toBeUndefined();
    expect(updated.body.data.updateCustomer).toMatchObject({ vatId: 'DE136695976', buyerReference: null, invoiceFormat: 'xrechnung' });
    expect((await a.api.graphql(`query($id: ID!) { customer(id: $id) { ${CUSTOMER_FIELDS} } }`, { id: customer.id })).body.data.customer).toEqual(updated.body.data.updateCustomer);

    const invalid = await a.api.graphql('mutation($input: CustomerInput!) { createCustomer(input: $input) { id } }', { input: { lastName: 'X', vatId: 'DE136695977' } });
    expect(invalid.body.errors[0].extensions.code).toBe('validation_failed');
    expect(invalid.body.errors[0].extensions.errors.map((e: { path: string; code: string }) => [e.path, e.code])).toEqual([['vatId', 'invalid_check_digit']]);
  });

  it('writes the VAT id (BT-48) and the buyer reference (BT-10) into the e-invoice, the same over REST and GraphQL', async () => {
    const customer = await fixtures.customer(a.api, { companyName: 'Stadtverwaltung Musterstadt', vatId: 'DE136695976', buyerReference: '04011000-12345-03', invoiceFormat: 'xrechnung' });
    await baseFeeContractOf(a, customer.id);
    const created = await create(a.api, '/v1/bill-runs', { periodStart: '2026-10-01', periodEnd: '2026-11-01' });
    const run = await waitForRun(a.api, created.id, 'created');
    expect(run.counts).toMatchObject({ invoices: 1, errors: 0 });
    const invoiceId = (await a.api.get(`/v1/invoices?billRunId=${run.id}&limit=10`)).body.data[0].id;

    const draft = await a.api.graphql('query($id: ID!) { invoice(id: $id) { eInvoice } }', { id: invoiceId });
    expect(draft.body.errors[0].extensions.code).toBe('invoice_not_issued');

    expect((await a.api.post(`/v1/bill-runs/${run.id}/complete`)).status).toBe(202);
    await waitForRun(a.api, run.id, 'completed');

    const rest = await fetch(`${app.url}/v1/invoices/${invoiceId}/e-invoice`, { headers: { authorization: `Bearer ${a.accessToken}` } });
    expect(rest.status).toBe(200);
    const xml = await rest.text();
    expect(xml).toContain('<ram:BuyerReference>04011000-12345-03</ram:BuyerReference>');
    expect(/<ram:BuyerTradeParty>[\s\S]*<\/ram:BuyerTradeParty>/.exec(xml)![0]).toContain('<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE136695976</ram:ID></ram:SpecifiedTaxRegistration>');

    const graphql = await a.api.graphql('query($id: ID!) { invoice(id: $id) { xrechnung: eInvoice en16931: eInvoice(profile: en16931) } }', { id: invoiceId });
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data.invoice.xrechnung).toBe(xml);
    const plain = await fetch(`${app.url}/v1/invoices/${invoiceId}/e-invoice?profile=en16931`, { headers: { authorization: `Bearer ${a.accessToken}` } });
    expect(graphql.body.data.invoice.en16931).toBe(await plain.text());

    // profile is an enum: GraphQL refuses an unknown one before core sees it.
    const unknown = await a.api.graphql('query($id: ID!) { invoice(id: $id) { eInvoice(profile: ubl) } }', { id: invoiceId });
    expect(unknown.body.errors[0]).toMatchObject({ message: 'Value "ubl" does not exist in "EInvoiceProfile" enum.', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
  });

  it('stores the PDF as the invoice format asks: a Factur-X hybrid with the EN 16931 XML, the XRechnung visualisation, or a plain PDF', async () => {
    const formats = ['facturx', 'xrechnung', 'pdf'] as const;
    const customers = await Promise.all(formats.map((invoiceFormat) => fixtures.customer(a.api, { companyName: `Hausverwaltung ${invoiceFormat}`, invoiceFormat })));
    for (const customer of customers) await baseFeeContractOf(a, customer.id);
    const created = await create(a.api, '/v1/bill-runs', { periodStart: '2026-10-01', periodEnd: '2026-11-01' });
    await waitForRun(a.api, created.id, 'created');
    expect((await a.api.post(`/v1/bill-runs/${created.id}/complete`)).status).toBe(202);
    await waitForRun(a.api, created.id, 'completed');
    const invoices = (await a.api.get(`/v1/invoices?billRunId=${created.id}&limit=10`)).body.data as Array<{ id: string; customerId: string }>;
    const get = (path: string) => fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${a.accessToken}` } });

    for (const [index, format] of formats.entries()) {
      const invoice = invoices.find((i) => i.customerId === customers[index]!.id)!;
      const pdf = Buffer.from(await (await get(`/v1/invoices/${invoice.id}/pdf`)).arrayBuffer());
      const attachments = await attachmentsOf(pdf);
      const text = (await extractPages(pdf)).join(' ');
      if (format === 'facturx') {
        expect([...attachments.keys()]).toEqual(['factur-x.xml']);
        expect(attachments.get('factur-x.xml')!.content.toString('utf8')).toBe(await (await get(`/v1/invoices/${invoice.id}/e-invoice?profile=en16931`)).text());
      } else {
        expect(attachments.size).toBe(0);
      }
      expect(text.includes('Visualisierung der XRechnung'), format).toBe(format === 'xrechnung');
    }
  });
});
