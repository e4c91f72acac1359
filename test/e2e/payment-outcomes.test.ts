import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarDateOf } from '../../core/domain/time/calendar-date.js';
import { earliestCollectionDate } from '../../core/domain/time/target2.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { waitForRun } from '../support/billing.js';
import { queryRows } from '../support/database.js';
import { create, expectRejected, fixtures } from '../support/fixtures.js';
import type { Api, ApiResponse } from '../support/http.js';
import { invoicePdfText } from '../support/pdf.js';
import { directDebit } from '../support/registry.js';
import { blocksAnother, waitFor } from '../support/waiting.js';

/** A month bills a base fee of 12.00 net, 14.28 gross at 19 %. */
const SEPTEMBER = { periodStart: '2026-09-01', periodEnd: '2026-10-01' };
const OCTOBER = { periodStart: '2026-10-01', periodEnd: '2026-11-01' };
const QH = 15 * 60 * 1000;
/** September and October 2026 in Berlin, the months billed: a meter has to measure every day of them, nothing used. */
const MEASURED = { from: Date.parse('2026-08-31T22:00:00.000Z'), to: Date.parse('2026-10-31T23:00:00.000Z') };

describe('payment outcomes: submitted payments, returns, failures and refunds', () => {
  let app: TestApp;
  let api: Api;
  let accessToken: string;
  let product: Record<string, any>;

  beforeAll(async () => {
    app = await startTestApp({ QUEUE_POLL_SECONDS: '0.5', RATE_LIMIT_PER_MINUTE: '100000' });
    ({ api, accessToken } = await app.signUp('Stadtwerke Outcomes'));
    const vat = await create(api, '/v1/tax-rates', { name: 'VAT', percentage: '19.00', validFrom: '2020-01-01' });
    product = await fixtures.product(api, { prepaymentConfiguration: { cycle: 'monthly', dayOfMonth: 15 } });
    const group = await create(api, '/v1/price-component-groups', { electricityProductId: product.id, name: 'Strom' });
    const fee = await create(api, '/v1/price-components', { priceComponentGroupId: group.id, name: 'Grundpreis', kind: 'base_fee', taxRateId: vat.id });
    await create(api, '/v1/prices', { priceComponentId: fee.id, validFrom: '2026-01-01', amount: '12.000000' });
  });
  afterAll(() => app.close());

  /**
   * A measured contract on a site of its own (so that each bill run bills only it), its customer
   * with a default direct debit mandate.
   */
  async function contractWithMandate(): Promise<{ contract: Record<string, any>; method: Record<string, any>; siteId: string }> {
    const site = await fixtures.site(api, { type: 'unbalanced_accurate' });
    const meter = await fixtures.meter(api, site.id, { measuring: 'load_profile_accurate', startDate: new Date(MEASURED.from).toISOString() });
    const measurements = Array.from({ length: (MEASURED.to - MEASURED.from) / QH }, (_, i) => ({ meterId: meter.id, timestamp: new Date(MEASURED.from + i * QH).toISOString(), value: 0 }));
    const uploaded = await api.post('/v1/measurements', { measurements });
    expect(uploaded.status, JSON.stringify(uploaded.body).slice(0, 500)).toBe(201);
    const customer = await fixtures.customer(api);
    const method = await create(api, '/v1/payment-methods', { customerId: customer.id, ...directDebit });
    const contract = await fixtures.contract(api, { customerId: customer.id, electricityProductId: product.id, siteId: site.id });
    await create(api, '/v1/contract-meters', { contractId: contract.id, siteId: site.id, meterId: meter.id, startDate: '2026-01-01' });
    return { contract, method, siteId: site.id };
  }

  /** A bill run for the site's contract over the period, drafted: the run and its one draft. */
  async function draftRun(siteId: string, period: { periodStart: string; periodEnd: string }): Promise<{ run: Record<string, any>; draft: Record<string, any> }> {
    const run = await create(api, '/v1/bill-runs', { ...period, siteIds: [siteId] });
    expect((await waitForRun(api, run.id, 'created')).counts).toMatchObject({ invoices: 1, errors: 0 });
    const [draft] = (await api.get(`/v1/invoices?billRunId=${run.id}`)).body.data;
    return { run, draft };
  }

  /** Completes a drafted run; answers its one invoice. */
  async function completeRun(run: Record<string, any>): Promise<Record<string, any>> {
    expect((await api.post(`/v1/bill-runs/${run.id}/complete`)).status).toBe(202);
    await waitForRun(api, run.id, 'completed');
    return (await api.get(`/v1/invoices?billRunId=${run.id}`)).body.data[0];
  }

  /** Bills the site's contract for the period through a completed bill run; answers its invoice, which must be in `state`. */
  async function bill(siteId: string, period: { periodStart: string; periodEnd: string } = OCTOBER, state = 'issued'): Promise<Record<string, any>> {
    const invoice = await completeRun((await draftRun(siteId, period)).run);
    expect(invoice.state).toBe(state);
    return invoice;
  }

  const paymentRows = (contractId: string) =>
    queryRows(
      app.database.url,
      `select id, type, state, amount::text, due_date::text as "dueDate", payment_method_id as "paymentMethodId", reference, invoice_id as "invoiceId", locked_at is not null as locked
         from payments where contract_id = $1 order by created_at, id`,
      [contractId],
    );
  const events = async (type: string, id: string) => (await api.get(`/v1/events?type=${type}&limit=100`)).body.data.filter((e: Record<string, any>) => e.data.id === id);
  const invoiceState = async (id: string) => (await api.get(`/v1/invoices/${id}`)).body.state;
  /** The stored e-invoice's payment means (BT-81), whether it names a mandate, and the account it asks payment to (BT-84). */
  const paymentMeansOf = async (id: string) => {
    const response = await fetch(`${app.url}/v1/invoices/${id}/e-invoice`, { headers: { authorization: `Bearer ${accessToken}` } });
    const xml = await response.text();
    const code = /<ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>(\d+)</.exec(xml)?.[1];
    const payee = /<ram:PayeePartyCreditorFinancialAccount><ram:IBANID>(\w+)</.exec(xml)?.[1] ?? null;
    return [response.status, code, xml.includes('DirectDebitMandateID'), payee];
  };
  /** The first collection date a run may ask for today. */
  const collectionDate = () => earliestCollectionDate(calendarDateOf(new Date(), 'Europe/Berlin'));
  /** A run of `type` for the site finds nothing to pay. */
  const nothingToCollect = async (type: string, siteId: string, dueUntil: string) => {
    const refused = await api.post('/v1/payment-runs', { type, collectionDate: collectionDate(), dueUntil, siteIds: [siteId] });
    expect([refused.status, refused.body.code], type).toEqual([409, 'nothing_to_pay']);
  };

  /**
   * Sends a request while another session holds an invoice's row. Once the request waits for it, a
   * third session tries each of `rows` without waiting: true for a row the request held no lock on
   * yet, else the error code (55P03).
   */
  async function whileInvoiceHeld(
    invoiceId: string,
    request: () => Promise<ApiResponse>,
    rows: Record<string, { table: string; id: string }>,
  ): Promise<{ free: Record<string, unknown>; response: ApiResponse }> {
    let requesting: Promise<ApiResponse> | undefined;
    const free: Record<string, unknown> = {};
    await inOtherSession(async (db) => {
      await db.query('select 1 from invoices where id = $1 for no key update', [invoiceId]);
      requesting = request();
      await waitFor('the request waiting for the invoice', () => blocksAnother(db));
      for (const [name, { table, id }] of Object.entries(rows)) {
        free[name] = await inOtherSession(async (other) => void (await other.query(`select 1 from ${table} where id = $1 for update nowait`, [id]))).then(
          () => true,
          (error: { code?: string }) => error.code,
        );
      }
    });
    return { free, response: await requesting! };
  }

  /** A direct debit run for the site takes `amount` naming the credit note, which stays issued until it is received. */
  async function collectCreditNote(siteId: string, creditNote: Record<string, any>, amount: string): Promise<void> {
    const run = await create(api, '/v1/payment-runs', { type: 'direct_debit', collectionDate: collectionDate(), dueUntil: creditNote.dueDate, siteIds: [siteId] });
    const items = (await api.get(`/v1/payment-runs/${run.id}/items`)).body.data;
    expect(items).toEqual([expect.objectContaining({ paymentType: 'payment', amount, invoiceId: creditNote.id, state: 'submitted' })]);
    expect(await invoiceState(creditNote.id)).toBe('issued');
    expect((await api.patch(`/v1/payments/${items[0].paymentId}`, { state: 'received' })).status).toBe(200);
    expect(await invoiceState(creditNote.id)).toBe('paid');
  }

  /** Runs `work` in a transaction of a session of its own, which it commits. */
  async function inOtherSession(work: (db: pg.Client) => Promise<void>): Promise<void> {
    const db = new pg.Client({ connectionString: app.database.url });
    await db.connect();
    try {
      await db.query('begin');
      await work(db);
      await db.query('commit');
    } finally {
      await db.end();
    }
  }

  it('keeps submitted to payment runs: no payment is created in it, moved into it, or moved from it back to pending', async () => {
    const { contract } = await contractWithMandate();
    const base = { contractId: contract.id, amount: '20.00', type: 'payment', dueDate: '2026-10-20' };
    const refused = await expectRejected(api, { path: '/v1/payments', body: { ...base, state: 'submitted' } }, { status: 400, code: 'state_not_allowed', path: 'state' });
    expect(refused.errors).toEqual([{ path: 'state', code: 'state_not_allowed', message: expect.stringContaining('submitted is set by payment runs') }]);
    const batch = await api.post('/v1/payments/batch', { payments: [base, { ...base, state: 'submitted' }] });
    expect([batch.status, batch.body.errors]).toEqual([400, [expect.objectContaining({ path: 'payments[1].state', code: 'state_not_allowed' })]]);
    expect(await paymentRows(contract.id)).toEqual([]);

    const payment = await create(api, '/v1/payments', base);
    const into = await api.patch(`/v1/payments/${payment.id}`, { state: 'submitted' });
    expect([into.status, into.body.errors]).toEqual([400, [expect.objectContaining({ path: 'state', code: 'state_not_allowed' })]]);

    await queryRows(app.database.url, `update payments set state = 'submitted' where id = $1`, [payment.id]);
    expect((await api.get(`/v1/payments/${payment.id}`)).body.state).toBe('submitted');
    const back = await api.patch(`/v1/payments/${payment.id}`, { state: 'pending' });
    expect([back.status, back.body.errors]).toEqual([400, [{ path: 'state', code: 'state_not_allowed', message: 'submitted is set by payment runs; cancel the run to return its payments to pending.' }]]);
    const changed = await api.patch(`/v1/payments/${payment.id}`, { amount: '25.00' });
    expect([changed.status, changed.body.code]).toEqual([409, 'payment_submitted']);
    expect((await paymentRows(contract.id)).map((p) => [p.state, p.amount])).toEqual([['submitted', '2000']]);
    const listed = await api.get(`/v1/payments?contractId=${contract.id}&state=submitted`);
    expect(listed.body.data.map((p: Record<string, any>) => p.id)).toEqual([payment.id]);
  });

  it('records the bank receiving a submitted payment: the invoice it covers is paid', async () => {
    const { contract, siteId } = await contractWithMandate();
    const invoice = await bill(siteId);
    expect(invoice.amountDue).toBe('14.28');
    const payment = await create(api, '/v1/payments', { contractId: contract.id, amount: '14.28', type: 'payment', dueDate: invoice.dueDate, invoiceId: invoice.id });
    await queryRows(app.database.url, `update payments set state = 'submitted' where id = $1`, [payment.id]);

    const received = await api.patch(`/v1/payments/${payment.id}`, { state: 'received' });
    expect(received.status).toBe(200);
    expect(received.body.data).toMatchObject({ state: 'received', receivedAt: expect.any(String) });
    expect(await invoiceState(invoice.id)).toBe('paid');
    expect(await events('invoice.paid', invoice.id)).toHaveLength(1);
    expect((await paymentRows(contract.id)).map((p) => p.state)).toEqual(['received']);
  });

  it('records a returned direct debit of a locked prepayment: failed, and a new pending prepayment that collects it again, which no later invoice deducts', async () => {
    const { contract, method, siteId } = await contractWithMandate();
    await create(api, '/v1/prepayment-amounts', { contractId: contract.id, amount: '10.00', validFrom: '2026-01-01' });
    const prepayment = await create(api, '/v1/payments', {
      contractId: contract.id,
      amount: '10.00',
      type: 'prepayment',
      state: 'received',
      dueDate: '2026-09-15',
      paymentMethodId: method.id,
      reference: 'PP-2026-09',
    });
    const september = await bill(siteId, SEPTEMBER);
    expect(september).toMatchObject({ prepaymentsTotal: '10.00', amountDue: '4.28' });
    expect((await api.get(`/v1/payments/${prepayment.id}`)).body.lockedAt).not.toBeNull();

    // Locked: only the return may be recorded, and alone.
    const amount = await api.patch(`/v1/payments/${prepayment.id}`, { amount: '11.00' });
    expect([amount.status, amount.body.code]).toEqual([409, 'payment_locked']);
    const returnAndAmount = await api.patch(`/v1/payments/${prepayment.id}`, { state: 'failed', amount: '11.00' });
    expect([returnAndAmount.status, returnAndAmount.body.code]).toEqual([409, 'payment_locked']);
    expect(await paymentRows(contract.id)).toEqual([expect.objectContaining({ id: prepayment.id, state: 'received', amount: '1000', locked: true })]);

    const returned = await api.patch(`/v1/payments/${prepayment.id}`, { state: 'failed' });
    expect(returned.status, JSON.stringify(returned.body)).toBe(200);
    expect(returned.body.data).toMatchObject({ state: 'failed', receivedAt: null, amount: '10.00', lockedAt: expect.any(String) });
    const rows = await paymentRows(contract.id);
    expect(rows).toEqual([
      { id: prepayment.id, type: 'prepayment', state: 'failed', amount: '1000', dueDate: '2026-09-15', paymentMethodId: method.id, reference: 'PP-2026-09', invoiceId: null, locked: true },
      { id: expect.any(String), type: 'prepayment', state: 'pending', amount: '1000', dueDate: '2026-09-15', paymentMethodId: method.id, reference: 'PP-2026-09', invoiceId: null, locked: false },
    ]);
    const replacement = rows[1]!.id;
    expect(await events('payment.updated', prepayment.id)).toEqual(expect.arrayContaining([expect.objectContaining({ data: expect.objectContaining({ state: 'failed' }) })]));
    expect(await events('payment.created', replacement)).toEqual([expect.objectContaining({ data: expect.objectContaining({ state: 'pending', dueDate: '2026-09-15', amount: '10.00' }) })]);
    // The invoice that deducted the prepayment stays as issued; the replacement is the due date's prepayment now.
    expect(await invoiceState(september.id)).toBe('issued');
    const ensured = await create(api, '/v1/prepayment-requests', { contractId: contract.id, startDate: '2026-09-01', endDate: '2026-10-01' });
    expect(ensured.paymentIds).toEqual([replacement]);
    expect((await api.patch(`/v1/payments/${prepayment.id}`, { state: 'received' })).body.code).toBe('payment_locked');

    // September counted the 10.00 already: the replacement collects it, and October does not deduct it again.
    expect((await api.patch(`/v1/payments/${replacement}`, { state: 'received' })).status).toBe(200);
    const october = await bill(siteId, OCTOBER);
    expect(october).toMatchObject({ prepaymentsTotal: '0.00', amountDue: '14.28' });
    expect((await paymentRows(contract.id)).map((p) => [p.state, p.locked])).toEqual([['failed', true], ['received', false]]);

    // Returned too: its replacement is not deducted either.
    expect((await api.patch(`/v1/payments/${replacement}`, { state: 'failed' })).status).toBe(200);
    const again = (await paymentRows(contract.id))[2]!;
    expect(again).toMatchObject({ type: 'prepayment', state: 'pending', amount: '1000', dueDate: '2026-09-15', locked: false });
    expect((await api.patch(`/v1/payments/${again.id}`, { state: 'received' })).status).toBe(200);
    expect((await api.post(`/v1/invoices/${october.id}/cancel`)).status).toBe(201);
    expect(await bill(siteId, OCTOBER)).toMatchObject({ prepaymentsTotal: '0.00', amountDue: '14.28' });

    // Once September is cancelled it deducts nothing: billed again, it deducts what was received of the prepayment, once.
    expect((await api.post(`/v1/invoices/${september.id}/cancel`)).status).toBe(201);
    expect(await bill(siteId, SEPTEMBER)).toMatchObject({ prepaymentsTotal: '10.00', amountDue: '4.28' });
    expect((await paymentRows(contract.id)).map((p) => [p.state, p.locked])).toEqual([['failed', false], ['failed', false], ['received', true]]);
  });

  it('deducts at issue what is deductible then: a prepayment another invoice deducted first, returned or corrected meanwhile', async () => {
    const { contract, siteId } = await contractWithMandate();
    const prepayment = await create(api, '/v1/payments', { contractId: contract.id, amount: '10.00', type: 'prepayment', state: 'received', dueDate: '2026-09-15' });

    // Both months drafted before either is issued deduct the one prepayment; the first issued takes it.
    const september = await draftRun(siteId, SEPTEMBER);
    const october = await draftRun(siteId, OCTOBER);
    expect([september.draft.prepaymentsTotal, october.draft.prepaymentsTotal]).toEqual(['10.00', '10.00']);
    // Corrected after drafting: September deducts what was received.
    expect((await api.patch(`/v1/payments/${prepayment.id}`, { amount: '12.00' })).status).toBe(200);
    expect(await completeRun(september.run)).toMatchObject({ state: 'issued', prepaymentsTotal: '12.00', amountDue: '2.28' });
    expect(await completeRun(october.run)).toMatchObject({ state: 'issued', prepaymentsTotal: '0.00', amountDue: '14.28' });
    expect((await paymentRows(contract.id)).map((p) => [p.amount, p.locked])).toEqual([['1200', true]]);

    // Returned after drafting: September deducts nothing, and October the replacement, once received.
    const other = await contractWithMandate();
    const returning = await create(api, '/v1/payments', { contractId: other.contract.id, amount: '10.00', type: 'prepayment', state: 'received', dueDate: '2026-09-15' });
    const { run } = await draftRun(other.siteId, SEPTEMBER);
    expect((await api.patch(`/v1/payments/${returning.id}`, { state: 'failed' })).status).toBe(200);
    expect(await completeRun(run)).toMatchObject({ prepaymentsTotal: '0.00', amountDue: '14.28' });
    const [, replacement] = await paymentRows(other.contract.id);
    expect((await api.patch(`/v1/payments/${replacement!.id}`, { state: 'received' })).status).toBe(200);
    expect(await bill(other.siteId, OCTOBER)).toMatchObject({ prepaymentsTotal: '10.00', amountDue: '4.28' });
    expect((await paymentRows(other.contract.id)).map((p) => [p.state, p.locked])).toEqual([['failed', false], ['received', true]]);
  });

  it('deducts at issue the prepayments received since drafting, none due from the period end and none pending', async () => {
    const { contract, siteId } = await contractWithMandate();
    await create(api, '/v1/payments', { contractId: contract.id, amount: '10.00', type: 'prepayment', state: 'received', dueDate: '2026-09-15' });
    const september = await draftRun(siteId, SEPTEMBER);
    expect(september.draft).toMatchObject({ prepaymentsTotal: '10.00', amountDue: '4.28' });

    await create(api, '/v1/payments', { contractId: contract.id, amount: '4.00', type: 'prepayment', state: 'received', dueDate: '2026-09-25' });
    await create(api, '/v1/payments', { contractId: contract.id, amount: '3.00', type: 'prepayment', dueDate: '2026-09-28' });
    await create(api, '/v1/payments', { contractId: contract.id, amount: '7.00', type: 'prepayment', state: 'received', dueDate: '2026-10-01' });
    const issued = await completeRun(september.run);
    expect(issued).toMatchObject({ state: 'issued', prepaymentsTotal: '14.00', amountDue: '0.28' });
    expect((await paymentRows(contract.id)).map((p) => [p.amount, p.state, p.locked])).toEqual([
      ['1000', 'received', true],
      ['400', 'received', true],
      ['300', 'pending', false],
      ['700', 'received', false],
    ]);
    // The e-invoice states what the invoice deducted (BT-113) and what is due (BT-115).
    const xml = await (await fetch(`${app.url}/v1/invoices/${issued.id}/e-invoice`, { headers: { authorization: `Bearer ${accessToken}` } })).text();
    expect([/<ram:TotalPrepaidAmount>([^<]+)</.exec(xml)?.[1], /<ram:DuePayableAmount>([^<]+)</.exec(xml)?.[1]]).toEqual(['14.00', '0.28']);
    // October deducts the one due on its first day.
    expect(await bill(siteId, OCTOBER)).toMatchObject({ prepaymentsTotal: '7.00', amountDue: '7.28' });
  });

  it('leaves the due date of a failed prepayment to the one replacing it', async () => {
    const { contract } = await contractWithMandate();
    const prepayment = await create(api, '/v1/payments', { contractId: contract.id, amount: '30.00', type: 'prepayment', dueDate: '2026-12-15' });
    await queryRows(app.database.url, `update payments set state = 'submitted' where id = $1`, [prepayment.id]);
    expect((await api.patch(`/v1/payments/${prepayment.id}`, { state: 'failed' })).status).toBe(200);
    const [, replacement] = await paymentRows(contract.id);
    expect(replacement).toMatchObject({ type: 'prepayment', state: 'pending', amount: '3000', dueDate: '2026-12-15' });
    // Back from failed it would be a second prepayment of the due date.
    const back = await api.patch(`/v1/payments/${prepayment.id}`, { state: 'received' });
    expect([back.status, back.body.code]).toEqual([409, 'prepayment_exists']);
    // A failed prepayment may be recorded beside it.
    await create(api, '/v1/payments', { contractId: contract.id, amount: '30.00', type: 'prepayment', state: 'failed', dueDate: '2026-12-15' });
    const second = await api.post('/v1/payments', { contractId: contract.id, amount: '30.00', type: 'prepayment', dueDate: '2026-12-15' });
    expect([second.status, second.body.code]).toEqual([409, 'prepayment_exists']);
    expect((await paymentRows(contract.id)).map((p) => p.state)).toEqual(['failed', 'pending', 'failed']);
  });

  it('settles an invoice whose two payments are recorded at once: each sees the other', async () => {
    const { contract, siteId } = await contractWithMandate();
    const invoice = await bill(siteId);
    const pending = await create(api, '/v1/payments', { contractId: contract.id, amount: '4.28', type: 'payment', dueDate: invoice.dueDate, invoiceId: invoice.id });
    // Another session records that one as received while this request records the rest: the request
    // waits for the invoice, then counts both.
    let recording: Promise<ApiResponse> | undefined;
    await inOtherSession(async (db) => {
      await db.query('select 1 from invoices where id = $1 for no key update', [invoice.id]);
      await db.query(`update payments set state = 'received', received_at = now() where id = $1`, [pending.id]);
      recording = api.post('/v1/payments', { contractId: contract.id, amount: '10.00', type: 'payment', state: 'received', dueDate: invoice.dueDate, invoiceId: invoice.id });
      await waitFor('the payment waiting for the invoice', () => blocksAnother(db));
    });
    expect((await recording!).status).toBe(201);
    expect(await invoiceState(invoice.id)).toBe('paid');
    expect(await events('invoice.paid', invoice.id)).toHaveLength(1);
  });

  it('locks the invoice before the payment, as settling and refunds do, so that changes to the payments of one invoice never deadlock', async () => {
    const { contract, siteId } = await contractWithMandate();
    const invoice = await bill(siteId);
    const payment = await create(api, '/v1/payments', { contractId: contract.id, amount: '4.28', type: 'payment', dueDate: invoice.dueDate, invoiceId: invoice.id });
    const { free, response } = await whileInvoiceHeld(invoice.id, () => api.patch(`/v1/payments/${payment.id}`, { state: 'failed' }), { payment: { table: 'payments', id: payment.id } });
    expect(free).toEqual({ payment: true });
    expect(response.status).toBe(200);
    expect((await paymentRows(contract.id)).map((p) => p.state)).toEqual(['failed']);
  });

  it('locks the invoice a credit note cancels before a payment of the credit note, as settling the credit note does', async () => {
    const { contract, siteId, credit, refund } = await creditOf35();
    await payOut(siteId, refund);
    expect((await api.patch(`/v1/payments/${refund.id}`, { state: 'received' })).status).toBe(200);
    const creditNote = (await api.post(`/v1/invoices/${credit.id}/cancel`)).body;
    const payment = await create(api, '/v1/payments', { contractId: contract.id, amount: '35.72', type: 'payment', dueDate: creditNote.dueDate, invoiceId: creditNote.id });
    const { free, response } = await whileInvoiceHeld(credit.id, () => api.patch(`/v1/payments/${payment.id}`, { state: 'received' }), { payment: { table: 'payments', id: payment.id } });
    expect(free).toEqual({ payment: true });
    expect(response.status).toBe(200);
    expect(await invoiceState(creditNote.id)).toBe('paid');
  });

  it('cancels a payment run locking its invoices first, then its payments, then the run, as recording an outcome does', async () => {
    const { contract, siteId } = await contractWithMandate();
    const invoice = await bill(siteId);
    const run = await create(api, '/v1/payment-runs', { type: 'direct_debit', collectionDate: collectionDate(), dueUntil: invoice.dueDate, siteIds: [siteId] });
    const [item] = (await api.get(`/v1/payment-runs/${run.id}/items`)).body.data;
    const { free, response } = await whileInvoiceHeld(invoice.id, () => api.post(`/v1/payment-runs/${run.id}/cancel`), {
      payment: { table: 'payments', id: item.paymentId },
      run: { table: 'payment_runs', id: run.id },
    });
    expect(free).toEqual({ payment: true, run: true });
    expect([response.status, response.body.state]).toEqual([200, 'cancelled']);
    expect((await paymentRows(contract.id)).map((p) => [p.type, p.state])).toEqual([['payment', 'pending']]);
  });

  it('settles and refunds again when a received payment is corrected: moved to another invoice, or less than recorded', async () => {
    const { contract, siteId } = await contractWithMandate();
    const september = await bill(siteId, SEPTEMBER);
    const october = await bill(siteId);
    const payment = await create(api, '/v1/payments', { contractId: contract.id, amount: '14.28', type: 'payment', state: 'received', dueDate: september.dueDate, invoiceId: september.id });
    expect([await invoiceState(september.id), await invoiceState(october.id)]).toEqual(['paid', 'issued']);

    // It paid October, not September.
    expect((await api.patch(`/v1/payments/${payment.id}`, { invoiceId: october.id })).status).toBe(200);
    expect([await invoiceState(september.id), await invoiceState(october.id)]).toEqual(['issued', 'paid']);
    expect(await events('invoice.reopened', september.id)).toHaveLength(1);
    expect(await events('invoice.paid', october.id)).toHaveLength(1);

    // October is cancelled and its 14.28 refunded; then only 10.00 turns out to have arrived.
    const creditNote = (await api.post(`/v1/invoices/${october.id}/cancel`)).body;
    const refunds = async () => (await paymentRows(contract.id)).filter((p) => p.type === 'refund').map((p) => [p.state, p.amount, p.invoiceId]);
    expect(await refunds()).toEqual([['pending', '1428', october.id]]);
    expect((await api.patch(`/v1/payments/${payment.id}`, { amount: '10.00' })).status).toBe(200);
    expect(await refunds()).toEqual([['pending', '1000', october.id]]);
    expect(await invoiceState(creditNote.id)).toBe('issued');
    // And it was September's after all: nothing is paid back on October, whose credit note is settled.
    expect((await api.patch(`/v1/payments/${payment.id}`, { invoiceId: september.id })).status).toBe(200);
    expect(await refunds()).toEqual([['failed', '1000', october.id]]);
    expect([await invoiceState(september.id), await invoiceState(creditNote.id)]).toEqual(['issued', 'paid']);
  });

  it('reopens the invoice a returned payment had paid', async () => {
    const { contract, siteId } = await contractWithMandate();
    const invoice = await bill(siteId);
    const payment = await create(api, '/v1/payments', { contractId: contract.id, amount: '14.28', type: 'payment', state: 'received', dueDate: invoice.dueDate, invoiceId: invoice.id });
    expect(await invoiceState(invoice.id)).toBe('paid');

    const returned = await api.patch(`/v1/payments/${payment.id}`, { state: 'failed' });
    expect([returned.status, returned.body.data.state]).toEqual([200, 'failed']);
    expect(await invoiceState(invoice.id)).toBe('issued');
    expect(await events('invoice.reopened', invoice.id)).toEqual([expect.objectContaining({ data: expect.objectContaining({ id: invoice.id, state: 'issued' }) })]);
    // The invoice is open again, to the next payment run; no payment is created for it.
    expect((await paymentRows(contract.id)).map((p) => [p.type, p.state])).toEqual([['payment', 'failed']]);
  });

  it('refunds an invoice that credits the customer; the received refund pays it, a bounced one is paid out anew', async () => {
    const { contract, method, siteId } = await contractWithMandate();
    await create(api, '/v1/payments', { contractId: contract.id, amount: '50.00', type: 'prepayment', state: 'received', dueDate: '2026-10-15' });
    const invoice = await bill(siteId);
    expect(invoice).toMatchObject({ grossTotal: '14.28', prepaymentsTotal: '50.00', amountDue: '-35.72' });
    const refunds = (await paymentRows(contract.id)).filter((p) => p.type === 'refund');
    expect(refunds).toEqual([
      { id: expect.any(String), type: 'refund', state: 'pending', amount: '3572', dueDate: invoice.dueDate, paymentMethodId: method.id, reference: invoice.number, invoiceId: invoice.id, locked: false },
    ]);
    const refund = refunds[0]!.id;
    expect(await events('payment.created', refund)).toEqual([expect.objectContaining({ userId: null, data: expect.objectContaining({ type: 'refund', amount: '35.72' }) })]);
    // Its e-invoice asks for no debit under the mandate: the credit is transferred to the customer's account.
    expect(await paymentMeansOf(invoice.id)).toEqual([200, '58', false, directDebit.iban.replaceAll(' ', '')]);

    expect((await api.patch(`/v1/payments/${refund}`, { state: 'received' })).status).toBe(200);
    expect(await invoiceState(invoice.id)).toBe('paid');

    // The bounce reported twice at once: one new refund.
    const bounced = await Promise.all([1, 2].map(() => api.patch(`/v1/payments/${refund}`, { state: 'failed' })));
    expect(bounced.map((r) => r.status)).toEqual([200, 200]);
    expect(await invoiceState(invoice.id)).toBe('issued');
    expect(await events('invoice.reopened', invoice.id)).toHaveLength(1);
    expect((await paymentRows(contract.id)).filter((p) => p.type === 'refund').map((p) => [p.state, p.amount, p.invoiceId, p.reference])).toEqual([
      ['failed', '3572', invoice.id, invoice.number],
      ['pending', '3572', invoice.id, invoice.number],
    ]);
  });

  it('refunds what was received towards a cancelled invoice, and nothing for a cancelled invoice nobody paid', async () => {
    const { contract, method, siteId } = await contractWithMandate();
    const invoice = await bill(siteId);
    await create(api, '/v1/payments', { contractId: contract.id, amount: '10.00', type: 'payment', state: 'received', dueDate: invoice.dueDate, invoiceId: invoice.id });
    await create(api, '/v1/payments', { contractId: contract.id, amount: '4.28', type: 'payment', dueDate: invoice.dueDate, invoiceId: invoice.id });
    const cancelled = await api.post(`/v1/invoices/${invoice.id}/cancel`);
    expect(cancelled.status).toBe(201);
    const creditNote = cancelled.body;
    const refunds = (await paymentRows(contract.id)).filter((p) => p.type === 'refund');
    expect(refunds).toEqual([
      { id: expect.any(String), type: 'refund', state: 'pending', amount: '1000', dueDate: creditNote.dueDate, paymentMethodId: method.id, reference: creditNote.number, invoiceId: invoice.id, locked: false },
    ]);
    expect(await events('payment.created', refunds[0]!.id)).toHaveLength(1);
    expect(creditNote.state).toBe('issued');
    // The refund names the cancelled invoice and can still be recorded as paid out, which settles the
    // credit note: the 4.28 still recorded as pending need not be paid any more.
    const paidOut = await api.patch(`/v1/payments/${refunds[0]!.id}`, { state: 'received' });
    expect([paidOut.status, paidOut.body.data?.state]).toEqual([200, 'received']);
    expect(await invoiceState(invoice.id)).toBe('cancelled');
    expect(await invoiceState(creditNote.id)).toBe('paid');
    expect(await events('invoice.paid', creditNote.id)).toEqual([expect.objectContaining({ data: expect.objectContaining({ state: 'paid', amountDue: '-14.28' }) })]);

    const unpaid = await contractWithMandate();
    const unpaidInvoice = await bill(unpaid.siteId);
    const unpaidCancelled = await api.post(`/v1/invoices/${unpaidInvoice.id}/cancel`);
    expect([unpaidCancelled.status, unpaidCancelled.body.state]).toEqual([201, 'paid']);
    expect(await events('invoice.paid', unpaidCancelled.body.id)).toHaveLength(1);
    expect(await paymentRows(unpaid.contract.id)).toEqual([]);
  });

  it('withdraws what a cancelled invoice refunds for payments the bank returns: only money that arrived is paid back', async () => {
    const { contract, siteId } = await contractWithMandate();
    const invoice = await bill(siteId);
    const paid = async (amount: string) => create(api, '/v1/payments', { contractId: contract.id, amount, type: 'payment', state: 'received', dueDate: invoice.dueDate, invoiceId: invoice.id });
    const [first, second, third] = [await paid('10.00'), await paid('2.28'), await paid('2.00')];
    const creditNote = (await api.post(`/v1/invoices/${invoice.id}/cancel`)).body;
    const refundRows = async () => (await paymentRows(contract.id)).filter((p) => p.type === 'refund').map((p) => [p.state, p.amount, p.reference]);
    expect(await refundRows()).toEqual([['pending', '1428', creditNote.number]]);
    const refundId = (await paymentRows(contract.id)).find((p) => p.type === 'refund')!.id;

    expect((await api.patch(`/v1/payments/${third.id}`, { state: 'failed' })).status).toBe(200);
    expect(await refundRows()).toEqual([['pending', '1228', creditNote.number]]);
    expect(await invoiceState(creditNote.id)).toBe('issued');
    expect(await events('payment.updated', refundId)).toEqual([expect.objectContaining({ data: expect.objectContaining({ state: 'pending', amount: '12.28' }) })]);

    // Another return commits while this one waits for the invoice: this one sees it and withdraws the rest.
    let returning: Promise<ApiResponse> | undefined;
    await inOtherSession(async (db) => {
      await db.query('select 1 from invoices where id = $1 for update', [invoice.id]);
      returning = api.patch(`/v1/payments/${first.id}`, { state: 'failed' });
      await waitFor('the return waiting for the invoice', () => blocksAnother(db));
      await db.query(`update payments set state = 'failed', received_at = null where id = $1`, [second.id]);
    });
    expect((await returning!).status).toBe(200);
    expect(await refundRows()).toEqual([['failed', '1228', creditNote.number]]);
    expect((await events('payment.updated', refundId)).map((e: Record<string, any>) => `${e.data.state} ${e.data.amount}`).toSorted()).toEqual(['failed 12.28', 'pending 12.28']);
    expect(await invoiceState(invoice.id)).toBe('cancelled');
    // Nothing arrived and nothing is paid back: the credit note is settled.
    expect(await invoiceState(creditNote.id)).toBe('paid');
    const payout = await api.post('/v1/payment-runs', { type: 'credit_transfer', collectionDate: collectionDate(), dueUntil: creditNote.dueDate, siteIds: [siteId] });
    expect([payout.status, payout.body.code]).toEqual([409, 'nothing_to_pay']);
  });

  it('asks back through the credit note a refund paid out for a payment the bank returned after, collected once the operator records it', async () => {
    const { contract, siteId } = await contractWithMandate();
    const invoice = await bill(siteId);
    const payment = await create(api, '/v1/payments', { contractId: contract.id, amount: '14.28', type: 'payment', state: 'received', dueDate: invoice.dueDate, invoiceId: invoice.id });
    const creditNote = (await api.post(`/v1/invoices/${invoice.id}/cancel`)).body;
    const refund = (await paymentRows(contract.id)).find((p) => p.type === 'refund')!;
    await create(api, '/v1/payment-runs', { type: 'credit_transfer', collectionDate: collectionDate(), dueUntil: creditNote.dueDate, siteIds: [siteId] });
    expect((await api.patch(`/v1/payments/${refund.id}`, { state: 'received' })).status).toBe(200);
    expect(await invoiceState(creditNote.id)).toBe('paid');

    // The customer has the 14.28 back twice: the credit note asks one back.
    expect((await api.patch(`/v1/payments/${payment.id}`, { state: 'failed' })).status).toBe(200);
    expect(await invoiceState(creditNote.id)).toBe('issued');
    expect((await events('invoice.reopened', creditNote.id)).map((e: Record<string, any>) => e.data.state)).toEqual(['issued']);
    // No document announced this debit: runs leave it until the operator, having told the customer, records it.
    await nothingToCollect('direct_debit', siteId, creditNote.dueDate);
    await create(api, '/v1/payments', { contractId: contract.id, amount: '14.28', type: 'payment', dueDate: creditNote.dueDate, invoiceId: creditNote.id });
    await collectCreditNote(siteId, creditNote, '14.28');
    await nothingToCollect('direct_debit', siteId, creditNote.dueDate);
    await nothingToCollect('credit_transfer', siteId, creditNote.dueDate);
  });

  it('refunds a payment that arrives for an invoice cancelled while it was being collected', async () => {
    const { contract, method, siteId } = await contractWithMandate();
    const invoice = await bill(siteId);
    const run = await create(api, '/v1/payment-runs', { type: 'direct_debit', collectionDate: collectionDate(), dueUntil: invoice.dueDate, siteIds: [siteId] });
    const [item] = (await api.get(`/v1/payment-runs/${run.id}/items`)).body.data;
    expect(item).toMatchObject({ amount: '14.28', invoiceId: invoice.id, state: 'submitted' });
    const creditNote = (await api.post(`/v1/invoices/${invoice.id}/cancel`)).body;
    // Nothing had arrived when it was cancelled: nothing to pay back yet, but the debit may still arrive,
    // and the credit note says it will be paid back then.
    expect((await paymentRows(contract.id)).filter((p) => p.type === 'refund')).toEqual([]);
    expect(creditNote.state).toBe('issued');
    const creditText = (await invoicePdfText(app.url, accessToken, creditNote.id)).replace(/\s+/g, '');
    expect(creditText).toContain(`DieRechnung${invoice.number}iststorniert;offeneBeträgedarausmüssenSienichtmehrzahlen.DiebereitseingereichteLastschriftüber14,28€erstattenwirIhnen,sobaldsieeingegangenist.`);

    expect((await api.patch(`/v1/payments/${item.paymentId}`, { state: 'received' })).status).toBe(200);
    const refunds = (await paymentRows(contract.id)).filter((p) => p.type === 'refund');
    expect(refunds).toEqual([
      { id: expect.any(String), type: 'refund', state: 'pending', amount: '1428', dueDate: creditNote.dueDate, paymentMethodId: method.id, reference: creditNote.number, invoiceId: invoice.id, locked: false },
    ]);
    expect(await events('payment.created', refunds[0]!.id)).toHaveLength(1);
    expect(await invoiceState(invoice.id)).toBe('cancelled');
    // Recorded again: no second refund.
    expect((await api.patch(`/v1/payments/${item.paymentId}`, { state: 'received' })).status).toBe(200);
    expect((await paymentRows(contract.id)).filter((p) => p.type === 'refund')).toHaveLength(1);
    expect(await invoiceState(creditNote.id)).toBe('issued');

    // Paid out, the credit note is settled; the payout bounces, and it is open until the new one is paid out.
    const refundId = refunds[0]!.id;
    expect((await api.patch(`/v1/payments/${refundId}`, { state: 'received' })).status).toBe(200);
    expect(await invoiceState(creditNote.id)).toBe('paid');
    expect((await api.patch(`/v1/payments/${refundId}`, { state: 'failed' })).status).toBe(200);
    expect(await invoiceState(creditNote.id)).toBe('issued');
    expect(await events('invoice.reopened', creditNote.id)).toHaveLength(1);
    const replacement = (await paymentRows(contract.id)).filter((p) => p.type === 'refund' && p.state === 'pending');
    expect(replacement.map((p) => [p.amount, p.reference, p.invoiceId])).toEqual([['1428', creditNote.number, invoice.id]]);
    expect((await api.patch(`/v1/payments/${replacement[0]!.id}`, { state: 'received' })).status).toBe(200);
    expect(await invoiceState(creditNote.id)).toBe('paid');
    expect(await events('invoice.paid', creditNote.id)).toHaveLength(2);
  });

  it('settles the credit note of a cancelled invoice whose debit the bank returns or whose run is cancelled, and an invoice that asks nothing when it is issued', async () => {
    const { contract, siteId } = await contractWithMandate();
    const invoice = await bill(siteId);
    const run = await create(api, '/v1/payment-runs', { type: 'direct_debit', collectionDate: collectionDate(), dueUntil: invoice.dueDate, siteIds: [siteId] });
    const [item] = (await api.get(`/v1/payment-runs/${run.id}/items`)).body.data;
    const creditNote = (await api.post(`/v1/invoices/${invoice.id}/cancel`)).body;
    expect(creditNote.state).toBe('issued');
    expect((await api.patch(`/v1/payments/${item.paymentId}`, { state: 'failed' })).status).toBe(200);
    expect(await invoiceState(creditNote.id)).toBe('paid');
    expect((await paymentRows(contract.id)).map((p) => [p.type, p.state])).toEqual([['payment', 'failed']]);

    // The same, but the run is cancelled: the debit is pending again, never to be collected for a cancelled invoice.
    const withdrawn = await contractWithMandate();
    const withdrawnInvoice = await bill(withdrawn.siteId);
    const withdrawnRun = await create(api, '/v1/payment-runs', { type: 'direct_debit', collectionDate: collectionDate(), dueUntil: withdrawnInvoice.dueDate, siteIds: [withdrawn.siteId] });
    const withdrawnNote = (await api.post(`/v1/invoices/${withdrawnInvoice.id}/cancel`)).body;
    expect(withdrawnNote.state).toBe('issued');
    expect((await api.post(`/v1/payment-runs/${withdrawnRun.id}/cancel`)).status).toBe(200);
    expect((await paymentRows(withdrawn.contract.id)).map((p) => [p.type, p.state])).toEqual([['payment', 'pending']]);
    expect(await invoiceState(withdrawnNote.id)).toBe('paid');
    const nextRun = await api.post('/v1/payment-runs', { type: 'direct_debit', collectionDate: collectionDate(), dueUntil: withdrawnInvoice.dueDate, siteIds: [withdrawn.siteId] });
    expect([nextRun.status, nextRun.body.code]).toEqual([409, 'nothing_to_pay']);

    // Prepayments that cover the month exactly: nothing is due, nothing to collect, and the invoice is paid.
    const covered = await contractWithMandate();
    await create(api, '/v1/payments', { contractId: covered.contract.id, amount: '14.28', type: 'prepayment', state: 'received', dueDate: '2026-10-15' });
    const settled = await bill(covered.siteId, OCTOBER, 'paid');
    expect(settled).toMatchObject({ grossTotal: '14.28', prepaymentsTotal: '14.28', amountDue: '0.00' });
    expect((await events('invoice.paid', settled.id)).map((e: Record<string, any>) => e.data.state)).toEqual(['paid']);
    expect((await events('invoice.issued', settled.id)).map((e: Record<string, any>) => e.data.state)).toEqual(['issued']);
    expect(await invoicePdfText(app.url, accessToken, settled.id)).toContain('Es ist kein Betrag zu zahlen.');
  });

  it('creates no payment run with a refund that was cut back after the run read it', async () => {
    const { contract, siteId } = await contractWithMandate();
    const invoice = await bill(siteId);
    await create(api, '/v1/payments', { contractId: contract.id, amount: '14.28', type: 'payment', state: 'received', dueDate: invoice.dueDate, invoiceId: invoice.id });
    const creditNote = (await api.post(`/v1/invoices/${invoice.id}/cancel`)).body;
    const refund = (await paymentRows(contract.id)).find((p) => p.type === 'refund')!;
    let creating: Promise<ApiResponse> | undefined;
    await inOtherSession(async (db) => {
      await db.query('update payments set amount = 1000 where id = $1', [refund.id]);
      creating = api.post('/v1/payment-runs', { type: 'credit_transfer', collectionDate: collectionDate(), dueUntil: creditNote.dueDate, siteIds: [siteId] });
      await waitFor('the run waiting for the refund', () => blocksAnother(db));
    });
    const refused = await creating!;
    expect([refused.status, refused.body.code]).toEqual([409, 'payments_changed']);
    expect((await paymentRows(contract.id)).filter((p) => p.type === 'refund').map((p) => [p.state, p.amount])).toEqual([['pending', '1000']]);
  });

  /** A contract whose October invoice credits 35.72 (prepayments of 50.00 against 14.28), and its pending refund. */
  async function creditOf35(): Promise<{ contract: Record<string, any>; siteId: string; credit: Record<string, any>; refund: Record<string, any> }> {
    const { contract, siteId } = await contractWithMandate();
    await create(api, '/v1/payments', { contractId: contract.id, amount: '50.00', type: 'prepayment', state: 'received', dueDate: '2026-10-15' });
    const credit = await bill(siteId);
    expect(credit.amountDue).toBe('-35.72');
    const refunds = (await paymentRows(contract.id)).filter((p) => p.type === 'refund');
    expect(refunds.map((p) => [p.state, p.amount])).toEqual([['pending', '3572']]);
    return { contract, siteId, credit, refund: refunds[0]! };
  }

  /** Pays the refund out through a credit-transfer run; answers the run. */
  async function payOut(siteId: string, refund: Record<string, any>): Promise<Record<string, any>> {
    const run = await create(api, '/v1/payment-runs', { type: 'credit_transfer', collectionDate: collectionDate(), dueUntil: refund.dueDate, siteIds: [siteId] });
    expect((await api.get(`/v1/payment-runs/${run.id}/items`)).body.data).toEqual([expect.objectContaining({ paymentId: refund.id, paymentType: 'refund', amount: '35.72' })]);
    return run;
  }

  it('withdraws the refund of a credit cancelled before it was paid out: its credit note asks nothing, and billing again credits it once', async () => {
    const { contract, siteId, credit, refund } = await creditOf35();
    const creditNote = (await api.post(`/v1/invoices/${credit.id}/cancel`)).body;
    expect(creditNote).toMatchObject({ kind: 'credit_note', amountDue: '35.72' });
    expect((await paymentRows(contract.id)).filter((p) => p.type === 'refund').map((p) => [p.id, p.state, p.amount])).toEqual([[refund.id, 'failed', '3572']]);
    expect((await events('payment.updated', refund.id)).map((e: Record<string, any>) => e.data.state)).toEqual(['failed']);
    expect(await invoiceState(creditNote.id)).toBe('paid');
    expect(await events('invoice.paid', creditNote.id)).toHaveLength(1);
    const text = (await invoicePdfText(app.url, accessToken, creditNote.id)).replace(/\s+/g, '');
    expect(text).toContain(`DasGuthabenausderRechnung${credit.number}iststorniert.DennochnichtausgezahltenBetragvon35,72€zahlenwirnichtaus;dafürmüssenSienichtszahlen.`);
    expect(text).not.toContain('Wirziehen');
    // Its e-invoice names no debit either: the credit note offsets the credit (clearing between partners).
    expect(await paymentMeansOf(creditNote.id)).toEqual([200, '97', false, null]);
    await nothingToCollect('credit_transfer', siteId, creditNote.dueDate);
    await nothingToCollect('direct_debit', siteId, creditNote.dueDate);

    // The prepayment is deducted anew: the customer gets the credit once, through the new invoice.
    const again = await bill(siteId);
    expect(again).toMatchObject({ prepaymentsTotal: '50.00', amountDue: '-35.72' });
    expect((await paymentRows(contract.id)).filter((p) => p.type === 'refund' && p.state === 'pending').map((p) => [p.amount, p.invoiceId])).toEqual([['3572', again.id]]);
  });

  it('collects what the credit note of a cancelled credit announces, and what reached the customer later once the operator records it', async () => {
    // Cancelled after it was paid out: the PDF announces the debit, and a run collects it.
    const paid = await creditOf35();
    await payOut(paid.siteId, paid.refund);
    expect((await api.patch(`/v1/payments/${paid.refund.id}`, { state: 'received' })).status).toBe(200);
    const paidNote = (await api.post(`/v1/invoices/${paid.credit.id}/cancel`)).body;
    const paidText = (await invoicePdfText(app.url, accessToken, paidNote.id)).replace(/\s+/g, '');
    expect(paidText).toContain(`DasGuthabenausderRechnung${paid.credit.number}iststorniert.Wirziehen35,72€am`);
    await collectCreditNote(paid.siteId, paidNote, '35.72');

    // Cancelled while the refund was in a payment run: the PDF asks it back once it arrives, with no date.
    const { contract, siteId, credit, refund } = await creditOf35();
    await payOut(siteId, refund);
    const creditNote = (await api.post(`/v1/invoices/${credit.id}/cancel`)).body;
    expect(creditNote.state).toBe('issued');
    const text = (await invoicePdfText(app.url, accessToken, creditNote.id)).replace(/\s+/g, '');
    expect(text).toContain('DiebereitszurAuszahlungeingereichten35,72€fordernwirzurück,sobaldsiebeiIhneneingegangensind.');
    expect(text).not.toContain('Wirziehen');
    await nothingToCollect('direct_debit', siteId, creditNote.dueDate);
    expect((await api.patch(`/v1/payments/${refund.id}`, { state: 'received' })).status).toBe(200);
    expect(await invoiceState(creditNote.id)).toBe('issued');
    // No document announced a debit: runs leave it until the operator, having told the customer, records it.
    await nothingToCollect('direct_debit', siteId, creditNote.dueDate);
    await create(api, '/v1/payments', { contractId: contract.id, amount: '35.72', type: 'payment', dueDate: creditNote.dueDate, invoiceId: creditNote.id });
    await collectCreditNote(siteId, creditNote, '35.72');
  });

  it('settles the credit note of a cancelled credit whose refund the bank returns, and pays nothing out again', async () => {
    const { contract, siteId, credit, refund } = await creditOf35();
    await payOut(siteId, refund);
    const creditNote = (await api.post(`/v1/invoices/${credit.id}/cancel`)).body;
    expect((await api.patch(`/v1/payments/${refund.id}`, { state: 'failed' })).status).toBe(200);
    expect(await invoiceState(creditNote.id)).toBe('paid');
    // No replacement: the credit is cancelled.
    expect((await paymentRows(contract.id)).filter((p) => p.type === 'refund').map((p) => [p.state, p.amount])).toEqual([['failed', '3572']]);
    await nothingToCollect('credit_transfer', siteId, creditNote.dueDate);
    await nothingToCollect('direct_debit', siteId, creditNote.dueDate);

    // A credit that stands gets its bounced refund paid out anew.
    const standing = await creditOf35();
    await payOut(standing.siteId, standing.refund);
    expect((await api.patch(`/v1/payments/${standing.refund.id}`, { state: 'failed' })).status).toBe(200);
    expect((await paymentRows(standing.contract.id)).filter((p) => p.type === 'refund').map((p) => [p.state, p.amount])).toEqual([
      ['failed', '3572'],
      ['pending', '3572'],
    ]);
  });

  it('takes a transfer towards the credit note of a cancelled credit, and names the invoice whose refunds pay back a cancellation', async () => {
    const { contract, siteId, credit, refund } = await creditOf35();
    await payOut(siteId, refund);
    expect((await api.patch(`/v1/payments/${refund.id}`, { state: 'received' })).status).toBe(200);
    const creditNote = (await api.post(`/v1/invoices/${credit.id}/cancel`)).body;
    expect(creditNote.amountDue).toBe('35.72');
    const transfer = await api.post('/v1/payments', { contractId: contract.id, amount: '35.72', type: 'payment', state: 'received', dueDate: creditNote.dueDate, invoiceId: creditNote.id });
    expect(transfer.status).toBe(201);
    expect(await invoiceState(creditNote.id)).toBe('paid');

    // An invoice of 14.28 cancelled: its credit note asks nothing.
    const other = await contractWithMandate();
    const again = await bill(other.siteId);
    const storno = (await api.post(`/v1/invoices/${again.id}/cancel`)).body;
    expect(storno.amountDue).toBe('-14.28');
    const named = await api.post('/v1/payments', { contractId: other.contract.id, amount: '14.28', type: 'refund', dueDate: storno.dueDate, invoiceId: storno.id });
    expect([named.status, named.body.errors]).toEqual([
      400,
      [expect.objectContaining({ path: 'invoiceId', code: 'invoice_not_issued', message: `Credit note ${storno.id} pays back through refunds naming invoice ${again.id}, which it cancels; name that invoice.` })],
    ]);
    const cancelled = await api.post('/v1/payments', { contractId: other.contract.id, amount: '1.00', type: 'payment', dueDate: storno.dueDate, invoiceId: again.id });
    expect(cancelled.body.errors).toEqual([expect.objectContaining({ path: 'invoiceId', code: 'invoice_not_issued', message: `Invoice ${again.id} is cancelled; payments settle issued invoices.` })]);
  });

  it('cancels a paid invoice: what paid it is refunded, its prepayment unlocked, and the period billed again deducts it anew', async () => {
    const { contract, method, siteId } = await contractWithMandate();
    const prepayment = await create(api, '/v1/payments', { contractId: contract.id, amount: '5.00', type: 'prepayment', state: 'received', dueDate: '2026-10-15' });
    const invoice = await bill(siteId);
    expect(invoice).toMatchObject({ grossTotal: '14.28', prepaymentsTotal: '5.00', amountDue: '9.28' });
    const payment = await create(api, '/v1/payments', { contractId: contract.id, amount: '9.28', type: 'payment', state: 'received', dueDate: invoice.dueDate, invoiceId: invoice.id });
    expect(await invoiceState(invoice.id)).toBe('paid');

    const cancelled = await api.post(`/v1/invoices/${invoice.id}/cancel`);
    expect(cancelled.status).toBe(201);
    const creditNote = cancelled.body;
    expect(creditNote).toMatchObject({ kind: 'credit_note', state: 'issued', cancelsInvoiceId: invoice.id, grossTotal: '-14.28', prepaymentsTotal: '-5.00', amountDue: '-9.28' });
    expect(await invoiceState(invoice.id)).toBe('cancelled');
    expect(await events('invoice.cancelled', invoice.id)).toEqual([expect.objectContaining({ data: expect.objectContaining({ id: invoice.id, state: 'cancelled' }) })]);
    expect(await paymentRows(contract.id)).toEqual([
      expect.objectContaining({ id: prepayment.id, type: 'prepayment', state: 'received', locked: false }),
      expect.objectContaining({ id: payment.id, type: 'payment', state: 'received', invoiceId: invoice.id }),
      { id: expect.any(String), type: 'refund', state: 'pending', amount: '928', dueDate: creditNote.dueDate, paymentMethodId: method.id, reference: creditNote.number, invoiceId: invoice.id, locked: false },
    ]);
    const creditText = (await invoicePdfText(app.url, accessToken, creditNote.id)).replace(/\s+/g, '');
    expect(creditText).toContain(`DieRechnung${invoice.number}iststorniert;offeneBeträgedarausmüssenSienichtmehrzahlen.WirerstattenIhnen9,28€`);
    // Cancelled once: a second request is refused and refunds nothing more.
    expect((await api.post(`/v1/invoices/${invoice.id}/cancel`)).body.code).toBe('invoice_not_cancellable');
    expect((await paymentRows(contract.id)).filter((p) => p.type === 'refund')).toHaveLength(1);

    const again = await bill(siteId);
    expect(again).toMatchObject({ periodStart: OCTOBER.periodStart, periodEnd: OCTOBER.periodEnd, prepaymentsTotal: '5.00', amountDue: '9.28' });
  });
});
