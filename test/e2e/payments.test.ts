import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { queryRows } from '../support/database.js';
import { create, expectRejected, fixtures } from '../support/fixtures.js';
import { directDebit } from '../support/registry.js';

describe('payment methods, payments and prepayments', () => {
  let app: TestApp;
  let a: SignedUp;
  let contract: Record<string, any>;
  let customer: Record<string, any>;
  let product: Record<string, any>;
  let site: Record<string, any>;

  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
    a = await app.signUp('A');
    site = await fixtures.site(a.api);
    product = await fixtures.product(a.api, { prepaymentConfiguration: { cycle: 'monthly', dayOfMonth: 15 } });
    customer = await fixtures.customer(a.api);
    contract = await fixtures.contract(a.api, { customerId: customer.id, electricityProductId: product.id, siteId: site.id });
  });
  afterAll(() => app.close());

  const newContract = async (productId = product.id, extra: Record<string, unknown> = {}) => {
    const owner = await fixtures.customer(a.api);
    return fixtures.contract(a.api, { customerId: owner.id, electricityProductId: productId, siteId: site.id }, extra);
  };

  describe('payment methods', () => {
    it('normalises and checks IBANs and BICs, and needs the mandate for direct debit', async () => {
      const method = await create(a.api, '/v1/payment-methods', { customerId: customer.id, ...directDebit, iban: 'de89 3704 0044 0532 0130 00', bic: 'cobadeffxxx' });
      expect(method).toMatchObject({ iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', type: 'sepa_direct_debit', mandateSignedAt: '2026-01-01', isDefault: true });

      const body = { customerId: customer.id, ...directDebit };
      await expectRejected(a.api, { path: '/v1/payment-methods', body: { ...body, iban: 'DE88 3704 0044 0532 0130 00' } }, { status: 400, code: 'invalid_iban', path: 'iban' });
      await expectRejected(a.api, { path: '/v1/payment-methods', body: { ...body, iban: 'XX00 1234' } }, { status: 400, code: 'invalid_iban', path: 'iban' });
      await expectRejected(a.api, { path: '/v1/payment-methods', body: { ...body, bic: 'COBADE' } }, { status: 400, code: 'invalid_bic', path: 'bic' });
      const missing = await expectRejected(
        a.api,
        { path: '/v1/payment-methods', body: { customerId: customer.id, type: 'sepa_direct_debit', iban: directDebit.iban } },
        { status: 400, code: 'validation_failed' },
      );
      expect(missing.errors.map((e: { path: string; code: string }) => `${e.path}:${e.code}`).sort()).toEqual([
        'accountHolder:required_for_direct_debit',
        'mandateReference:required_for_direct_debit',
        'mandateSignedAt:required_for_direct_debit',
      ]);
      const transfer = await create(a.api, '/v1/payment-methods', { customerId: customer.id, type: 'bank_transfer' });
      expect(transfer).toMatchObject({ iban: null, isDefault: false });
      await expectRejected(a.api, { method: 'PATCH', path: `/v1/payment-methods/${method.id}`, body: { mandateReference: null }, collection: '/v1/payment-methods' }, {
        status: 400,
        code: 'required_for_direct_debit',
        path: 'mandateReference',
      });
      const other = await fixtures.customer(a.api);
      await expectRejected(a.api, { method: 'PATCH', path: `/v1/payment-methods/${method.id}`, body: { customerId: other.id }, collection: '/v1/payment-methods' }, {
        status: 400,
        code: 'field_read_only',
        path: 'customerId',
      });
    });

    it('keeps one default per customer', async () => {
      const owner = await fixtures.customer(a.api);
      const first = await create(a.api, '/v1/payment-methods', { customerId: owner.id, type: 'bank_transfer' });
      expect(first.isDefault).toBe(true);
      const second = await create(a.api, '/v1/payment-methods', { customerId: owner.id, ...directDebit, isDefault: true });
      expect(second.isDefault).toBe(true);
      expect((await a.api.get(`/v1/payment-methods/${first.id}`)).body.isDefault).toBe(false);
      const back = await a.api.patch(`/v1/payment-methods/${first.id}`, { isDefault: true });
      expect(back.body.data.isDefault).toBe(true);
      const rows = await queryRows(app.database.url, 'select id from payment_methods where customer_id = $1 and is_default', [owner.id]);
      expect(rows.map((r) => r.id)).toEqual([first.id]);
      const listed = await a.api.get(`/v1/payment-methods?customerId=${owner.id}`);
      expect(listed.body.total).toBe(2);
    });

    it('keeps one default under concurrent writes: the constraint decides, the loser gets 409 write_conflict', async () => {
      const owner = await fixtures.customer(a.api);
      const responses = await Promise.all(Array.from({ length: 4 }, () => a.api.post('/v1/payment-methods', { customerId: owner.id, type: 'bank_transfer', isDefault: true })));
      expect(responses.filter((r) => r.status === 201).length).toBeGreaterThan(0);
      for (const r of responses.filter((x) => x.status !== 201)) expect([r.status, r.body.code]).toEqual([409, 'write_conflict']);
      const [row] = await queryRows(app.database.url, 'select count(*)::int as n from payment_methods where customer_id = $1 and is_default', [owner.id]);
      expect(row!.n).toBe(1);
    });
  });

  describe('payments', () => {
    it('validates amounts, states and references, and accepts lockedAt only as null', async () => {
      const base = { contractId: contract.id, amount: '49.90', type: 'payment', dueDate: '2026-02-01' };
      const payment = await create(a.api, '/v1/payments', { ...base, lockedAt: null });
      expect(payment).toMatchObject({ ...base, state: 'pending', receivedAt: null, lockedAt: null, invoiceId: null, paymentMethodId: null });
      await expectRejected(a.api, { path: '/v1/payments', body: { ...base, lockedAt: '2026-02-01T00:00:00.000Z' } }, { status: 400, code: 'field_read_only', path: 'lockedAt' });
      for (const amount of ['0.00', '-1.00', '12.345', '1e3']) {
        await expectRejected(a.api, { path: '/v1/payments', body: { ...base, amount } }, { status: 400, code: 'invalid_amount', path: 'amount' });
      }
      await expectRejected(a.api, { path: '/v1/payments', body: { ...base, receivedAt: '2026-02-01T10:00:00.000Z' } }, { status: 400, code: 'received_at_without_receipt', path: 'receivedAt' });
      const stranger = await fixtures.customer(a.api);
      const foreignMethod = await create(a.api, '/v1/payment-methods', { customerId: stranger.id, type: 'bank_transfer' });
      await expectRejected(a.api, { path: '/v1/payments', body: { ...base, paymentMethodId: foreignMethod.id } }, { status: 400, code: 'payment_method_of_other_customer', path: 'paymentMethodId' });

      const received = await create(a.api, '/v1/payments', { ...base, state: 'received' });
      expect(Date.parse(received.receivedAt)).toBeGreaterThan(Date.now() - 60_000);
      const marked = await a.api.patch(`/v1/payments/${payment.id}`, { state: 'received', receivedAt: '2026-02-03T09:00:00.000Z', lockedAt: null });
      expect(marked.body.data).toMatchObject({ state: 'received', receivedAt: '2026-02-03T09:00:00.000Z', lockedAt: null });
      const failed = await a.api.patch(`/v1/payments/${payment.id}`, { state: 'failed' });
      expect(failed.body.data).toMatchObject({ state: 'failed', receivedAt: null });
      // invoiceId names an issued invoice (test/e2e/bill-runs.test.ts settles one); a payment is none.
      await expectRejected(a.api, { method: 'PATCH', path: `/v1/payments/${payment.id}`, body: { invoiceId: received.id }, collection: '/v1/payments' }, {
        status: 400,
        code: 'reference_not_found',
        path: 'invoiceId',
      });
    });

    it('refuses to change a locked payment', async () => {
      const payment = await create(a.api, '/v1/payments', { contractId: contract.id, amount: '10.00', type: 'payment', dueDate: '2026-03-01' });
      await queryRows(app.database.url, `update payments set locked_at = '2026-04-01T00:00:00Z' where id = $1`, [payment.id]);
      const response = await a.api.patch(`/v1/payments/${payment.id}`, { amount: '11.00' });
      expect([response.status, response.body.code]).toEqual([409, 'payment_locked']);
      const [row] = await queryRows(app.database.url, 'select amount from payments where id = $1', [payment.id]);
      expect(row!.amount).toBe('1000');
      expect((await a.api.get(`/v1/payments/${payment.id}`)).body).toMatchObject({ amount: '10.00', lockedAt: '2026-04-01T00:00:00.000Z' });
    });

    it('filters by contract, state, type and due date range', async () => {
      const mine = await newContract();
      for (const [dueDate, type, state] of [
        ['2026-01-10', 'payment', 'pending'],
        ['2026-02-10', 'payment', 'received'],
        ['2026-03-10', 'refund', 'pending'],
        ['2026-04-10', 'prepayment', 'pending'],
      ]) {
        await create(a.api, '/v1/payments', { contractId: mine.id, amount: '1.00', type, state, dueDate });
      }
      const dueDates = async (query: string) =>
        (await a.api.get(`/v1/payments?contractId=${mine.id}&${query}`)).body.data.map((p: { dueDate: string }) => p.dueDate).sort();
      expect(await dueDates('state=pending')).toEqual(['2026-01-10', '2026-03-10', '2026-04-10']);
      expect(await dueDates('type=refund')).toEqual(['2026-03-10']);
      expect(await dueDates('dueDateFrom=2026-02-10&dueDateTo=2026-04-10')).toEqual(['2026-02-10', '2026-03-10']);
      const bad = await a.api.get('/v1/payments?dueDateFrom=yesterday');
      expect([bad.status, bad.body.errors[0].code]).toEqual([400, 'invalid_date']);
    });

    it('creates batches all or nothing and reports every invalid item by index', async () => {
      const mine = await newContract();
      const item = (dueDate: string, extra: Record<string, unknown> = {}) => ({ contractId: mine.id, amount: '20.00', type: 'prepayment', dueDate, ...extra });
      const created = await a.api.post('/v1/payments/batch', { payments: [item('2026-01-15'), item('2026-02-15'), item('2026-03-15', { type: 'payment' })] });
      expect(created.status).toBe(201);
      expect(created.body.total).toBe(3);
      expect(created.body.data.map((p: { dueDate: string }) => p.dueDate)).toEqual(['2026-01-15', '2026-02-15', '2026-03-15']);

      const count = async () => (await a.api.get(`/v1/payments?contractId=${mine.id}`)).body.total;
      const invalid = await a.api.post('/v1/payments/batch', {
        payments: [item('2026-04-15'), item('2026-05-15', { amount: '0' }), item('2026-06-15', { contractId: '00000000-0000-4000-8000-000000000000' }), item('bad')],
      });
      expect(invalid.status).toBe(400);
      expect(invalid.body.errors.map((e: { path: string; code: string }) => `${e.path}:${e.code}`).sort()).toEqual([
        'payments[1].amount:invalid_amount',
        'payments[2].contractId:reference_not_found',
        'payments[3].dueDate:invalid_date',
      ]);
      expect(await count()).toBe(3);

      const duplicate = await a.api.post('/v1/payments/batch', { payments: [item('2026-07-15'), item('2026-01-15'), item('2026-08-15'), item('2026-08-15')] });
      expect([duplicate.status, duplicate.body.code]).toEqual([409, 'prepayment_exists']);
      expect(duplicate.body.detail).toMatch(/item 1: .*2026-01-15.*item 3: .*2026-08-15/);
      expect(await count()).toBe(3);
      const single = await a.api.post('/v1/payments', item('2026-02-15'));
      expect([single.status, single.body.code]).toEqual([409, 'prepayment_exists']);

      const tooMany = await a.api.post('/v1/payments/batch', { payments: Array.from({ length: 1001 }, () => item('2026-09-15', { type: 'payment' })) });
      expect([tooMany.status, tooMany.body.code]).toEqual([413, 'too_many_payments']);
      const empty = await a.api.post('/v1/payments/batch', { payments: [] });
      expect(empty.status).toBe(400);
      expect(await count()).toBe(3);
    });

    it('dates a payment or refund without dueDate by its receipt, else its creation, in the account timezone; a prepayment needs one', async () => {
      const mine = await newContract();
      const base = { contractId: mine.id, amount: '10.00' };
      const today = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
      // Berlin is UTC+2 on April 1st, 2026.
      const received = await create(a.api, '/v1/payments', { ...base, type: 'payment', state: 'received', receivedAt: '2026-03-31T22:30:00.000Z' });
      expect(received).toMatchObject({ dueDate: '2026-04-01', receivedAt: '2026-03-31T22:30:00.000Z' });
      const before = today('Europe/Berlin');
      const refund = await create(a.api, '/v1/payments', { ...base, type: 'refund' });
      expect([before, today('Europe/Berlin')]).toContain(refund.dueDate);
      const rows = await queryRows(app.database.url, 'select id, due_date::text as "dueDate" from payments where contract_id = $1 order by created_at', [mine.id]);
      expect(rows).toEqual([{ id: received.id, dueDate: '2026-04-01' }, { id: refund.id, dueDate: refund.dueDate }]);
      const reset = await a.api.patch(`/v1/payments/${received.id}`, { dueDate: null });
      expect([reset.status, reset.body.data.dueDate]).toEqual([200, '2026-04-01']);

      const prepayment = await expectRejected(a.api, { path: '/v1/payments', body: { ...base, type: 'prepayment' }, collection: `/v1/payments?contractId=${mine.id}` }, {
        status: 400,
        code: 'required',
        path: 'dueDate',
      });
      expect(prepayment.errors).toEqual([{ path: 'dueDate', code: 'required', message: 'A prepayment needs its due date.' }]);
      const batch = await a.api.post('/v1/payments/batch', { payments: [{ ...base, type: 'payment', state: 'received', receivedAt: '2026-06-30T21:59:59.999Z' }, { ...base, type: 'prepayment' }] });
      expect([batch.status, batch.body.errors]).toEqual([400, [{ path: 'payments[1].dueDate', code: 'required', message: 'A prepayment needs its due date.' }]]);
      const dated = await a.api.post('/v1/payments/batch', { payments: [{ ...base, type: 'payment', state: 'received', receivedAt: '2026-06-30T21:59:59.999Z' }, { ...base, type: 'prepayment', dueDate: '2026-07-15' }] });
      expect([dated.status, dated.body.data.map((p: { dueDate: string }) => p.dueDate)]).toEqual([201, ['2026-06-30', '2026-07-15']]);
      const graphql = await a.api.graphql(`mutation($input: PaymentInput!) { createPayment(input: $input) { dueDate } }`, {
        input: { ...base, type: 'refund', state: 'received', receivedAt: '2025-12-31T23:00:00.000Z' },
      });
      expect(graphql.body.data.createPayment.dueDate).toBe('2026-01-01');

      // Another account's zone: 05:00 UTC on April 1st is still March 31st in Los Angeles.
      const created = await app.cli('account', 'create', '--company-name', 'Pacific', '--email', 'ops-pacific@example.test', '--timezone', 'America/Los_Angeles');
      const { accessToken } = (await app.api().post('/v1/oauth', { grantType: 'api_token', token: created.apiToken })).body;
      const pacific = app.api(accessToken);
      const owner = await fixtures.customer(pacific);
      const theirs = await fixtures.contract(pacific, {
        customerId: owner.id,
        electricityProductId: (await fixtures.product(pacific)).id,
        siteId: (await fixtures.site(pacific)).id,
      });
      const late = await create(pacific, '/v1/payments', { contractId: theirs.id, amount: '1.00', type: 'payment', state: 'received', receivedAt: '2026-04-01T05:00:00.000Z' });
      expect(late.dueDate).toBe('2026-03-31');
    });

    it('creates a thousand payments in one batch', async () => {
      const mine = await newContract();
      const payments = Array.from({ length: 1000 }, (_, i) => ({ contractId: mine.id, amount: `${i + 1}.00`, type: 'payment', dueDate: '2026-05-01' }));
      const response = await a.api.post('/v1/payments/batch', { payments });
      expect([response.status, response.body.total]).toEqual([201, 1000]);
      const [sum] = await queryRows(app.database.url, 'select count(*)::int as n, sum(amount)::text as cents from payments where contract_id = $1', [mine.id]);
      expect(sum).toEqual({ n: 1000, cents: String(100 * (1000 * 1001) / 2) });
    });
  });

  describe('prepayments', () => {
    it('keeps one amount per contract and validFrom', async () => {
      const mine = await newContract();
      const amount = await create(a.api, '/v1/prepayment-amounts', { contractId: mine.id, amount: '50', validFrom: '2026-01-01' });
      expect(amount).toMatchObject({ amount: '50.00', validFrom: '2026-01-01' });
      await expectRejected(a.api, { path: '/v1/prepayment-amounts', body: { contractId: mine.id, amount: '60.00', validFrom: '2026-01-01' } }, { status: 409, code: 'prepayment_amount_exists' });
      await expectRejected(a.api, { path: '/v1/prepayment-amounts', body: { contractId: mine.id, amount: '-1.00', validFrom: '2026-02-01' } }, { status: 400, code: 'invalid_amount', path: 'amount' });
      const changed = await a.api.patch(`/v1/prepayment-amounts/${amount.id}`, { amount: '52.50' });
      expect(changed.body.data.amount).toBe('52.50');
      expect((await a.api.get(`/v1/prepayment-amounts?contractId=${mine.id}`)).body.total).toBe(1);
    });

    it('creates one pending prepayment per due date at the amount valid that day, and repeats safely', async () => {
      const mine = await newContract();
      const method = await create(a.api, '/v1/payment-methods', { customerId: mine.customerId, ...directDebit });
      await create(a.api, '/v1/prepayment-amounts', { contractId: mine.id, amount: '50.00', validFrom: '2026-01-01' });
      await create(a.api, '/v1/prepayment-amounts', { contractId: mine.id, amount: '55.00', validFrom: '2026-03-01' });

      const first = await create(a.api, '/v1/prepayment-requests', { contractId: mine.id, startDate: '2026-01-01', endDate: '2026-05-01' });
      expect(Object.keys(first).sort()).toEqual(['contractId', 'createdAt', 'endDate', 'id', 'paymentIds', 'startDate']);
      expect(first.paymentIds).toHaveLength(4);
      const prepayments = async () =>
        (await a.api.get(`/v1/payments?contractId=${mine.id}&type=prepayment`)).body.data
          .map((p: Record<string, string>) => [p.dueDate, p.amount, p.state, p.paymentMethodId])
          .sort();
      expect(await prepayments()).toEqual([
        ['2026-01-15', '50.00', 'pending', method.id],
        ['2026-02-15', '50.00', 'pending', method.id],
        ['2026-03-15', '55.00', 'pending', method.id],
        ['2026-04-15', '55.00', 'pending', method.id],
      ]);

      const overlapping = await create(a.api, '/v1/prepayment-requests', { contractId: mine.id, startDate: '2026-03-01', endDate: '2026-07-01' });
      expect(overlapping.paymentIds).toHaveLength(4);
      expect(overlapping.paymentIds.slice(0, 2)).toEqual(first.paymentIds.slice(2));
      expect((await prepayments()).map((p: string[]) => p[0])).toEqual(['2026-01-15', '2026-02-15', '2026-03-15', '2026-04-15', '2026-05-15', '2026-06-15']);
      expect((await a.api.get(`/v1/prepayment-requests/${first.id}`)).body).toEqual(first);
      expect((await a.api.get(`/v1/prepayment-requests?contractId=${mine.id}`)).body.total).toBe(2);
    });

    it('creates each due payment once under concurrent requests', async () => {
      const mine = await newContract();
      await create(a.api, '/v1/prepayment-amounts', { contractId: mine.id, amount: '40.00', validFrom: '2026-01-01' });
      const body = { contractId: mine.id, startDate: '2026-01-01', endDate: '2027-01-01' };
      const responses = await Promise.all(Array.from({ length: 6 }, () => a.api.post('/v1/prepayment-requests', body)));
      expect(responses.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
      for (const response of responses) expect(response.body.paymentIds).toEqual(responses[0]!.body.paymentIds);
      const rows = await queryRows(app.database.url, `select due_date::text as d, count(*)::int as n from payments where contract_id = $1 group by 1 order by 1`, [mine.id]);
      expect(rows).toHaveLength(12);
      expect(rows.every((row) => row.n === 1)).toBe(true);
    });

    it('honours quarterly cycles from the contract start and the contract period', async () => {
      const quarterly = await fixtures.product(a.api, { prepaymentConfiguration: { cycle: 'quarterly', dayOfMonth: 1 } });
      const mine = await newContract(quarterly.id, { startDate: '2026-02-10', endDate: '2026-12-01' });
      await create(a.api, '/v1/prepayment-amounts', { contractId: mine.id, amount: '120.00', validFrom: '2026-02-10' });
      await create(a.api, '/v1/prepayment-requests', { contractId: mine.id, startDate: '2026-01-01', endDate: '2027-06-01' });
      const dueDates = (await a.api.get(`/v1/payments?contractId=${mine.id}`)).body.data.map((p: { dueDate: string }) => p.dueDate).sort();
      expect(dueDates).toEqual(['2026-05-01', '2026-08-01', '2026-11-01']);
    });

    it('explains what is missing and refuses removed fields', async () => {
      const unconfigured = await fixtures.product(a.api);
      const plain = await newContract(unconfigured.id);
      await expectRejected(a.api, { path: '/v1/prepayment-requests', body: { contractId: plain.id, startDate: '2026-01-01', endDate: '2026-02-01' } }, { status: 409, code: 'prepayment_not_configured' });
      const noAmount = await newContract();
      const missing = await expectRejected(
        a.api,
        { path: '/v1/prepayment-requests', body: { contractId: noAmount.id, startDate: '2026-01-01', endDate: '2026-03-01' } },
        { status: 409, code: 'prepayment_amount_missing' },
      );
      expect(missing.detail).toContain('2026-01-15, 2026-02-15');
      expect((await a.api.get(`/v1/payments?contractId=${noAmount.id}`)).body.total).toBe(0);
      const removed = await expectRejected(
        a.api,
        { path: '/v1/prepayment-requests', body: { contractId: noAmount.id, date: '2026-01-01', paymentId: noAmount.id, startDate: '2026-01-01', endDate: '2026-02-01' } },
        { status: 400, code: 'validation_failed' },
      );
      expect(removed.errors.map((e: { path: string; code: string }) => `${e.path}:${e.code}`)).toEqual(['date:field_removed', 'paymentId:field_removed']);
      await expectRejected(a.api, { path: '/v1/prepayment-requests', body: { contractId: noAmount.id, startDate: '2026-02-01', endDate: '2026-02-01' } }, { status: 400, code: 'end_not_after_start', path: 'endDate' });
    });
  });

  it('serves the same over GraphQL, batches included', async () => {
    const mine = await newContract();
    const batch = await a.api.graphql(
      `mutation($input: [PaymentInput!]!) { createPayments(input: $input) { total data { amount dueDate state } } }`,
      { input: [{ contractId: mine.id, amount: '5.00', type: 'payment', dueDate: '2026-06-01' }, { contractId: mine.id, amount: '6.00', type: 'refund', dueDate: '2026-06-02' }] },
    );
    expect(batch.body.data.createPayments).toEqual({ total: 2, data: [{ amount: '5.00', dueDate: '2026-06-01', state: 'pending' }, { amount: '6.00', dueDate: '2026-06-02', state: 'pending' }] });
    const invalid = await a.api.graphql(`mutation($input: [PaymentInput!]!) { createPayments(input: $input) { total } }`, { input: [{ contractId: mine.id, amount: '0.001', type: 'payment', dueDate: '2026-06-01' }] });
    expect(invalid.body.errors[0].extensions.code).toBe('validation_failed');
    const listed = await a.api.graphql(`query($id: ID!) { payments(contractId: $id) { total } paymentMethods(customerId: $id) { total } }`, { id: mine.id });
    expect(listed.body.data).toEqual({ payments: { total: 2 }, paymentMethods: { total: 0 } });
  });
});
