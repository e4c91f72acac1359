import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { baseFeeContractOf, waitForRun } from '../support/billing.js';
import { queryRows } from '../support/database.js';
import { create, fixtures } from '../support/fixtures.js';

describe('GET /v1/invoices/{id}/e-invoice', () => {
  let app: TestApp;
  let account: SignedUp;
  let draftId: string;
  let invoice: Record<string, any>;
  let buyerReference: string;
  let customerId: string;

  const get = (who: SignedUp, id: string, query = '') => fetch(`${app.url}/v1/invoices/${id}/e-invoice${query}`, { headers: { authorization: `Bearer ${who.accessToken}` } });

  beforeAll(async () => {
    app = await startTestApp();
    account = await app.signUp('E-Invoicer');
    const customer = await fixtures.customer(account.api);
    const contract = await baseFeeContractOf(account, customer.id);
    buyerReference = customer.number ?? contract.number;
    customerId = customer.id;
    const created = await create(account.api, '/v1/bill-runs', { periodStart: '2026-10-01', periodEnd: '2026-11-01' });
    const run = await waitForRun(account.api, created.id, 'created');
    expect(run.counts).toMatchObject({ invoices: 1, errors: 0 });
    draftId = (await account.api.get(`/v1/invoices?billRunId=${run.id}&limit=10`)).body.data[0].id;
    expect((await get(account, draftId)).status).toBe(409);
    expect((await account.api.post(`/v1/bill-runs/${run.id}/complete`)).status).toBe(202);
    await waitForRun(account.api, run.id, 'completed');
    invoice = (await account.api.get(`/v1/invoices/${draftId}`)).body;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers the issued invoice as CII XML in the XRechnung CIUS', async () => {
    const response = await get(account, invoice.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await response.text();
    expect(xml).toContain(`<ram:ID>${invoice.number}</ram:ID>`);
    expect(xml).toContain('<ram:TypeCode>380</ram:TypeCode>');
    expect(xml).toContain('urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0');
    expect(xml).toContain(`<ram:BuyerReference>${buyerReference}</ram:BuyerReference>`);
    expect(xml).toContain(`<ram:LineTotalAmount>${invoice.netTotal}</ram:LineTotalAmount>`);
    expect(xml).toContain(`<ram:GrandTotalAmount>${invoice.grossTotal}</ram:GrandTotalAmount>`);
    expect(xml).toContain(`<ram:DuePayableAmount>${invoice.amountDue}</ram:DuePayableAmount>`);
    expect(xml).toContain('<udt:DateTimeString format="102">20261031</udt:DateTimeString>');
    expect(xml).toContain('unitCode="MON"');
  });

  it('writes plain EN 16931 with profile=en16931 and refuses unknown profiles', async () => {
    const xml = await (await get(account, invoice.id, '?profile=en16931')).text();
    expect(xml).toContain('<ram:ID>urn:cen.eu:en16931:2017</ram:ID>');
    expect(xml).not.toContain('xrechnung');
    expect((await get(account, invoice.id, '?profile=ubl')).status).toBe(400);
  });

  it('stores the XML of both profiles at issue: a later change of the customer’s address does not change it', async () => {
    const rows = await queryRows(
      app.database.url,
      'select account_id, profile, xml from invoice_e_invoices where invoice_id = $1 order by profile',
      [invoice.id],
    );
    expect(rows.map((row) => row.profile)).toEqual(['en16931', 'xrechnung']);
    expect(new Set(rows.map((row) => row.account_id)).size).toBe(1);
    const before = { xrechnung: await (await get(account, invoice.id)).text(), en16931: await (await get(account, invoice.id, '?profile=en16931')).text() };
    expect(before.xrechnung).toBe(rows.find((row) => row.profile === 'xrechnung')!.xml);
    expect(before.en16931).toBe(rows.find((row) => row.profile === 'en16931')!.xml);
    expect(before.xrechnung).toContain('<ram:CityName>Berlin</ram:CityName>');

    const moved = { line1: 'Neue Allee 7', locality: 'Hamburg', postCode: '20095', country: 'DE' };
    expect((await account.api.patch(`/v1/customers/${customerId}`, { address: moved })).status).toBe(200);
    expect((await account.api.get(`/v1/customers/${customerId}`)).body.address).toMatchObject(moved);

    const after = { xrechnung: await (await get(account, invoice.id)).text(), en16931: await (await get(account, invoice.id, '?profile=en16931')).text() };
    expect(after).toEqual(before);
    expect(after.xrechnung).not.toContain('Hamburg');
  });

  it('answers a draft 409 invoice_not_issued and another account’s invoice 404', async () => {
    const other = await app.signUp('Stranger');
    expect((await get(other, invoice.id)).status).toBe(404);
    const contract = await baseFeeContractOf(account, (await fixtures.customer(account.api)).id);
    const created = await create(account.api, '/v1/bill-runs', { periodStart: '2026-10-01', periodEnd: '2026-11-01' });
    const run = await waitForRun(account.api, created.id, 'created');
    const draft = ((await account.api.get(`/v1/invoices?billRunId=${run.id}&limit=10`)).body.data as Record<string, any>[]).find((i) => i.contractId === contract.id)!;
    const response = await get(account, draft.id);
    expect(response.status).toBe(409);
    expect(((await response.json()) as { code?: string }).code).toBe('invoice_not_issued');
  });

  it('writes the credit note of a cancellation as 381 referencing the invoice', async () => {
    const credit = await account.api.post(`/v1/invoices/${invoice.id}/cancel`);
    expect(credit.status).toBe(201);
    const xml = await (await get(account, credit.body.id)).text();
    expect(xml).toContain('<ram:TypeCode>381</ram:TypeCode>');
    expect(xml).toContain(`<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>${invoice.number}</ram:IssuerAssignedID>`);
    expect(xml).toContain(`<ram:GrandTotalAmount>${invoice.grossTotal}</ram:GrandTotalAmount>`);
  });
});
