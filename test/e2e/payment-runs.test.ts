import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { earliestRunDate } from '../../core/domain/payments/payment-run.js';
import { earliestCollectionDate, nextTarget2BusinessDay } from '../../core/domain/time/target2.js';
import { calendarDateOf } from '../../core/domain/time/calendar-date.js';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { baseFeeContract, billOctober } from '../support/billing.js';
import { queryRows } from '../support/database.js';
import { create, fixtures } from '../support/fixtures.js';
import { directDebit } from '../support/registry.js';
import { elementValues, sepaSchemaErrors } from '../support/sepa.js';

const today = () => calendarDateOf(new Date(), 'Europe/Berlin');

describe('SEPA payment runs', () => {
  let app: TestApp;
  let a: SignedUp;
  const places = new Map<SignedUp, { site: Record<string, any>; product: Record<string, any> }>();
  const collectionDate = earliestCollectionDate(today());

  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
    a = await app.signUp('Stadtwerk Süd');
  });
  afterAll(() => app.close());

  /** A customer with a contract and, when given, a payment method; answers both ids. */
  /** The account's one site and product, made on first use. */
  async function placeOf(account: SignedUp) {
    if (!places.has(account)) places.set(account, { site: await fixtures.site(account.api), product: await fixtures.product(account.api) });
    return places.get(account)!;
  }

  async function payer(account: SignedUp, method: Record<string, unknown> | null, customer: Record<string, unknown> = {}) {
    const { site, product } = await placeOf(account);
    const owner = await fixtures.customer(account.api, customer);
    const contract = await fixtures.contract(account.api, { customerId: owner.id, electricityProductId: product.id, siteId: site.id });
    const paymentMethod = method && (await create(account.api, '/v1/payment-methods', { customerId: owner.id, ...method }));
    return { customerId: owner.id as string, contractId: contract.id as string, methodId: paymentMethod?.id as string | undefined };
  }

  const prepayment = (account: SignedUp, contractId: string, dueDate: string, amount = '50.00') =>
    create(account.api, '/v1/payments', { contractId, type: 'prepayment', amount, dueDate });

  const state = async (paymentId: string) => (await queryRows(app.database.url, 'select state from payments where id = $1', [paymentId]))[0]!.state;

  it('collects pending prepayments and open invoice amounts, FRST first, and lists the customers it skipped', async () => {
    const b = await app.signUp('Mieterstrom Nord');
    // An issued invoice of 14.28 for a customer with a mandate (name with umlauts and symbols).
    const billed = await baseFeeContract(b, { lastName: 'Müller-Lüdenscheidt & Söhne', firstName: 'Jürgen' });
    await create(b.api, '/v1/payment-methods', { customerId: billed.customerId, ...directDebit, accountHolder: 'Jürgen Müller' });
    const run = await billOctober(b);
    expect((await b.api.post(`/v1/bill-runs/${run.id}/complete`, {})).status).toBe(202);
    const invoice = await waitForIssued(b, billed.contractId);
    const invoicePrepayment = await prepayment(b, billed.contractId, '2026-11-01', '50.00');

    const transfer = await payer(b, { type: 'bank_transfer' });
    const none = await payer(b, null);
    const expired = await payer(b, { ...directDebit, mandateReference: 'OLD-1', mandateSignedAt: '2022-01-03' });
    const skippedPayments = [await prepayment(b, transfer.contractId, '2026-11-01'), await prepayment(b, none.contractId, '2026-11-01'), await prepayment(b, expired.contractId, '2026-11-01')];
    const later = await prepayment(b, billed.contractId, '2027-03-01');

    const response = await b.api.post('/v1/payment-runs', { type: 'direct_debit', collectionDate, dueUntil: '2026-12-31' });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.headers.get('location')).toBe(`/v1/payment-runs/${response.body.id}`);
    const created = response.body;
    expect(created).toMatchObject({
      type: 'direct_debit',
      state: 'open',
      collectionDate,
      dueUntil: '2026-12-31',
      siteIds: null,
      counts: { payments: 2, submitted: 2, received: 0, failed: 0 },
      controlSum: '64.28',
      fileUrl: `/v1/payment-runs/${created.id}/file`,
      messageId: created.id.replaceAll('-', ''),
    });
    expect(created.skipped.map((s: any) => [s.customerId, s.reason, s.paymentIds]).sort()).toEqual(
      [
        [transfer.customerId, 'no_mandate', [skippedPayments[0]!.id]],
        [none.customerId, 'no_payment_method', [skippedPayments[1]!.id]],
        [expired.customerId, 'mandate_expired', [skippedPayments[2]!.id]],
      ].sort(),
    );
    expect(created.skipped.find((s: any) => s.reason === 'mandate_expired').message).toContain('36 months');

    const items = (await b.api.get(`/v1/payment-runs/${created.id}/items`)).body;
    expect(items.total).toBe(2);
    const invoiceItem = items.data.find((i: any) => i.invoiceId === invoice.id);
    expect(invoiceItem).toMatchObject({ paymentType: 'payment', amount: '14.28', state: 'submitted', sequenceType: 'FRST', mandateReference: 'M-1', customerId: billed.customerId });
    expect(items.data.find((i: any) => i.paymentId === invoicePrepayment.id)).toMatchObject({ paymentType: 'prepayment', amount: '50.00', state: 'submitted', sequenceType: 'FRST' });
    // The payment created for the invoice's open amount, and the prepayment, are submitted; the rest stay pending.
    const [collected] = await queryRows(app.database.url, `select amount::int, type, state, invoice_id from payments where id = $1`, [invoiceItem.paymentId]);
    expect(collected).toEqual({ amount: 1428, type: 'payment', state: 'submitted', invoice_id: invoice.id });
    expect(await state(invoicePrepayment.id)).toBe('submitted');
    for (const p of [...skippedPayments, later]) expect(await state(p.id)).toBe('pending');

    const file = await b.api.request('GET', `/v1/payment-runs/${created.id}/file`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('application/xml');
    const xml = file.body as string;
    expect(await sepaSchemaErrors(xml)).toBeNull();
    expect(elementValues(xml, 'NbOfTxs')).toEqual(['2', '2']);
    expect(elementValues(xml, 'CtrlSum')).toEqual(['64.28', '64.28']);
    expect(elementValues(xml, 'SeqTp')).toEqual(['FRST']);
    expect(elementValues(xml, 'ReqdColltnDt')).toEqual([collectionDate]);
    expect(xml).toContain('<Nm>Juergen Mueller</Nm>');
    expect(elementValues(xml, 'MndtId')).toEqual(['M-1', 'M-1']);
    expect(xml).toContain('DE98ZZZ09999999999');
    // In the language of the invoice's template, and for a prepayment of the account's default one; dates as the documents write them.
    const contractNumber = (await b.api.get(`/v1/contracts/${billed.contractId}`)).body.number;
    expect(elementValues(xml, 'Ustrd').sort()).toEqual([`Abschlag 01.11.2026 Vertrag ${contractNumber}`, `Rechnung ${invoice.number} Vertrag ${contractNumber}`]);
    // The same bytes at every download.
    expect((await b.api.request('GET', `/v1/payment-runs/${created.id}/file`)).body).toBe(xml);

    // Nothing left to collect: the open amount is covered by the submitted payment.
    const again = await b.api.post('/v1/payment-runs', { type: 'direct_debit', collectionDate, dueUntil: '2026-12-31' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'nothing_to_pay' });

    const events = (await b.api.get('/v1/events?limit=1000')).body.data.filter((e: any) => e.type === 'payment_run.created');
    expect(events.map((e: any) => e.data.id)).toEqual([created.id]);

    // Outcomes: both received; the run closes, the invoice is paid.
    for (const item of items.data) {
      const patched = await b.api.patch(`/v1/payments/${item.paymentId}`, { state: 'received' });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    }
    expect((await b.api.get(`/v1/payment-runs/${created.id}`)).body).toMatchObject({ state: 'closed', counts: { payments: 2, submitted: 0, received: 2, failed: 0 } });
    expect((await b.api.get(`/v1/invoices/${invoice.id}`)).body.state).toBe('paid');
    const closed = (await b.api.get('/v1/events?limit=1000')).body.data.filter((e: any) => e.type === 'payment_run.closed');
    expect(closed.map((e: any) => e.data.id)).toEqual([created.id]);

    // The mandate's next collection is recurring.
    const next = await prepayment(b, billed.contractId, '2026-12-01');
    const second = await create(b.api, '/v1/payment-runs', { type: 'direct_debit', collectionDate, dueUntil: '2026-12-31' });
    const secondItems = (await b.api.get(`/v1/payment-runs/${second.id}/items`)).body.data;
    expect(secondItems).toEqual([expect.objectContaining({ paymentId: next.id, sequenceType: 'RCUR' })]);
  });

  it('sends a mandate FRST again after its failed first collection and after an IBAN change', async () => {
    const c = await payer(a, directDebit);
    const first = await prepayment(a, c.contractId, '2026-11-02');
    const run1 = await create(a.api, '/v1/payment-runs', { type: 'direct_debit', collectionDate, siteIds: [(await placeOf(a)).site.id] });
    expect((await a.api.get(`/v1/payment-runs/${run1.id}/items`)).body.data).toEqual([expect.objectContaining({ paymentId: first.id, sequenceType: 'FRST' })]);
    expect((await a.api.patch(`/v1/payments/${first.id}`, { state: 'failed' })).status).toBe(200);
    expect((await a.api.get(`/v1/payment-runs/${run1.id}`)).body).toMatchObject({ state: 'closed', counts: { failed: 1 } });

    // The failed prepayment is due again (a new pending one), and goes out as FRST again.
    const run2 = await create(a.api, '/v1/payment-runs', { type: 'direct_debit', collectionDate, siteIds: [(await placeOf(a)).site.id] });
    const [again] = (await a.api.get(`/v1/payment-runs/${run2.id}/items`)).body.data;
    expect(again).toMatchObject({ amount: '50.00', sequenceType: 'FRST', paymentType: 'prepayment' });
    expect(again.paymentId).not.toBe(first.id);
    expect((await a.api.patch(`/v1/payments/${again.paymentId}`, { state: 'received' })).status).toBe(200);

    // A successful first collection: RCUR next, until the IBAN changes.
    await prepayment(a, c.contractId, '2026-11-03');
    const run3 = await create(a.api, '/v1/payment-runs', { type: 'direct_debit', collectionDate, siteIds: [(await placeOf(a)).site.id] });
    const [recurring] = (await a.api.get(`/v1/payment-runs/${run3.id}/items`)).body.data;
    expect(recurring.sequenceType).toBe('RCUR');
    expect((await a.api.patch(`/v1/payments/${recurring.paymentId}`, { state: 'received' })).status).toBe(200);
    expect((await a.api.patch(`/v1/payment-methods/${c.methodId}`, { iban: 'DE02120300000000202051' })).status).toBe(200);
    await prepayment(a, c.contractId, '2026-11-04');
    const run4 = await create(a.api, '/v1/payment-runs', { type: 'direct_debit', collectionDate, siteIds: [(await placeOf(a)).site.id] });
    expect((await a.api.get(`/v1/payment-runs/${run4.id}/items`)).body.data).toEqual([expect.objectContaining({ sequenceType: 'FRST', iban: 'DE02120300000000202051' })]);
  });

  it('cancels an open run (payments back to pending, no file) but not one with an outcome', async () => {
    const c = await payer(a, directDebit);
    const p1 = await prepayment(a, c.contractId, '2026-11-05');
    const run = await create(a.api, '/v1/payment-runs', { type: 'direct_debit', collectionDate, siteIds: [(await placeOf(a)).site.id] });
    const cancelled = await a.api.post(`/v1/payment-runs/${run.id}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ state: 'cancelled', counts: { payments: 1, submitted: 0 } });
    expect(cancelled.body.cancelledAt).not.toBeNull();
    expect(await state(p1.id)).toBe('pending');
    expect(await queryRows(app.database.url, 'select open from payment_run_items where payment_run_id = $1', [run.id])).toEqual([{ open: false }]);
    expect((await a.api.request('GET', `/v1/payment-runs/${run.id}/file`)).body).toMatchObject({ code: 'payment_run_cancelled' });
    expect((await a.api.post(`/v1/payment-runs/${run.id}/cancel`, {})).body).toMatchObject({ code: 'payment_run_not_cancellable' });

    // Taken again by the next run, still FRST (the cancelled run never reached the bank).
    const p2 = await prepayment(a, c.contractId, '2026-11-06');
    const next = await create(a.api, '/v1/payment-runs', { type: 'direct_debit', collectionDate, siteIds: [(await placeOf(a)).site.id] });
    const items = (await a.api.get(`/v1/payment-runs/${next.id}/items`)).body.data;
    expect(items.map((i: any) => [i.paymentId, i.sequenceType]).sort()).toEqual([[p1.id, 'FRST'], [p2.id, 'FRST']].sort());
    expect((await a.api.patch(`/v1/payments/${p1.id}`, { state: 'received' })).status).toBe(200);
    const refused = await a.api.post(`/v1/payment-runs/${next.id}/cancel`, {});
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'payment_run_not_cancellable' });
    expect(await state(p2.id)).toBe('submitted');
  });

  it('refuses collection dates that are not a TARGET2 business day at least one business day ahead, and an incomplete seller profile', async () => {
    const body = { type: 'direct_debit' };
    const saturday = ['2026-12-05', '2026-12-12', '2026-12-19'].find((d) => d > today())!;
    for (const date of [today(), saturday, '2026-12-25', '2027-01-01', '2027-03-26', '2027-03-29']) {
      const refused = await a.api.post('/v1/payment-runs', { ...body, collectionDate: date });
      expect(refused.status, date).toBe(400);
      expect(refused.body.errors, date).toEqual([expect.objectContaining({ path: 'collectionDate', code: 'collection_date_invalid' })]);
    }
    expect(nextTarget2BusinessDay(collectionDate) > collectionDate).toBe(true);
    const unprofiled = await app.signUp('Ohne Profil', { legalProfile: false });
    const refused = await unprofiled.api.post('/v1/payment-runs', { ...body, collectionDate });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'seller_profile_incomplete' });
    expect(refused.body.detail ?? refused.body.message ?? JSON.stringify(refused.body)).toContain('sepaCreditorId');
    expect((await a.api.post('/v1/payment-runs', { ...body, collectionDate, siteIds: ['00000000-0000-4000-8000-000000000000'] })).body).toMatchObject({
      errors: [expect.objectContaining({ path: 'siteIds[0]', code: 'reference_not_found' })],
    });
  });

  it('takes each payment into one open run when requests race, and the database refuses a second open run for a payment', async () => {
    const d = await app.signUp('Parallel');
    const payers = await Promise.all(Array.from({ length: 5 }, () => payer(d, directDebit)));
    const payments = await Promise.all(payers.flatMap((p) => ['2026-11-07', '2026-11-08', '2026-11-09', '2026-11-10'].map((due) => prepayment(d, p.contractId, due))));
    const answers = await Promise.all(Array.from({ length: 4 }, () => d.api.post('/v1/payment-runs', { type: 'direct_debit', collectionDate })));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    const rows = await queryRows(app.database.url, 'select payment_id from payment_run_items where account_id = $1 and open', [d.accountId]);
    expect(rows.map((r) => r.payment_id).sort()).toEqual(payments.map((p) => p.id).sort());
    const [first] = rows;
    const runId = answers.find((r) => r.status === 201)!.body.id;
    await expect(
      queryRows(
        app.database.url,
        `insert into payment_runs (account_id, id, type, state, collection_date, due_until, seller, payments_count, control_sum, skipped, created_at, updated_at)
           select account_id, gen_random_uuid(), type, state, collection_date, due_until, seller, 1, 1, '[]', now(), now() from payment_runs where id = $1 returning id`,
        [runId],
      ).then(([twin]) =>
        queryRows(
          app.database.url,
          `insert into payment_run_items select account_id, $1, payment_id, true, 0, customer_id, contract_id, payment_type, amount, payment_method_id, sequence_type, mandate_reference,
             mandate_signed_at, name, iban, bic, address, remittance, end_to_end_id, created_at from payment_run_items where payment_id = $2`,
          [twin!.id, first!.payment_id],
        ),
      ),
    ).rejects.toThrow(/payment_run_items_one_open_run_per_payment/);
  });

  it('pays out pending refunds by credit transfer, skipping customers without an IBAN', async () => {
    const e = await app.signUp('Erstattung & Co');
    // The account writes in English: its remittance texts too.
    await create(e.api, '/v1/templates', { name: 'Invoice EN', kind: 'invoice', locale: 'en-GB', isDefault: true });
    const withIban = await payer(e, { type: 'bank_transfer', accountHolder: 'Zoë Ødegård', iban: 'DE02120300000000202051' });
    const withoutIban = await payer(e, { type: 'bank_transfer' });
    const refund = await create(e.api, '/v1/payments', { contractId: withIban.contractId, type: 'refund', amount: '12.34', dueDate: '2026-11-02' });
    const stuck = await create(e.api, '/v1/payments', { contractId: withoutIban.contractId, type: 'refund', amount: '1.00', dueDate: '2026-11-02' });
    const prepaid = await prepayment(e, withIban.contractId, '2026-11-02');
    // Without a date: the earliest a credit transfer may name (today, on a business day).
    const run = await create(e.api, '/v1/payment-runs', { type: 'credit_transfer', dueUntil: '2026-12-31' });
    expect(run).toMatchObject({ type: 'credit_transfer', collectionDate: earliestRunDate('credit_transfer', today()), counts: { payments: 1 }, controlSum: '12.34' });
    expect(run.skipped).toEqual([expect.objectContaining({ customerId: withoutIban.customerId, reason: 'no_iban', paymentIds: [stuck.id] })]);
    expect(await state(refund.id)).toBe('submitted');
    expect(await state(prepaid.id)).toBe('pending');
    const xml = (await e.api.request('GET', `/v1/payment-runs/${run.id}/file`)).body as string;
    expect(await sepaSchemaErrors(xml)).toBeNull();
    expect(xml).toContain('urn:iso:std:iso:20022:tech:xsd:pain.001.001.09');
    expect(elementValues(xml, 'CtrlSum')).toEqual(['12.34', '12.34']);
    expect(xml).toContain('<Nm>Zoe Odegard</Nm>');
    expect(elementValues(xml, 'Ustrd')).toEqual([`Refund Contract ${(await e.api.get(`/v1/contracts/${withIban.contractId}`)).body.number}`]);
  });

  async function waitForIssued(account: SignedUp, contractId: string): Promise<Record<string, any>> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const [invoice] = (await account.api.get(`/v1/invoices?contractId=${contractId}`)).body.data;
      if (invoice?.state === 'issued') return invoice;
      if (Date.now() > deadline) throw new Error(`no issued invoice for ${contractId}: ${JSON.stringify(invoice)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
});
