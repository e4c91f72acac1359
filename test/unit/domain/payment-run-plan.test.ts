import { describe, expect, it } from 'vitest';
import type { MandateUse } from '../../../core/domain/payments/mandate-sequence.js';
import { PaymentMethod } from '../../../core/domain/payments/payment-method.js';
import { Payment, PAYMENT_STATES, submitPayment, withdrawPayment } from '../../../core/domain/payments/payment.js';
import { mandateKey, planRun, type Collectable } from '../../../core/domain/payments/payment-run-plan.js';
import { collectionDateProblem, earliestRunDate, PaymentRun, runSellerOf } from '../../../core/domain/payments/payment-run.js';

const method = (id: string, fields: Partial<PaymentMethod> = {}): PaymentMethod =>
  Object.assign(new PaymentMethod(), {
    id,
    customerId: `customer-${id}`,
    type: 'sepa_direct_debit',
    accountHolder: 'Anna Meyer',
    iban: 'DE89370400440532013000',
    bic: null,
    mandateReference: `M-${id}`,
    mandateSignedAt: '2026-01-01',
    isDefault: true,
    ...fields,
  });

const collectable = (customerId: string, fields: Partial<Collectable> = {}): Collectable => ({
  paymentId: `payment-of-${customerId}`,
  paymentType: 'prepayment',
  contractId: `contract-of-${customerId}`,
  customerId,
  invoiceId: null,
  amount: 5000n,
  paymentMethodId: null,
  ...fields,
});

function plan(methods: PaymentMethod[], collectables: Collectable[], uses: Record<string, MandateUse[]> = {}, type: 'direct_debit' | 'credit_transfer' = 'direct_debit') {
  return planRun({
    type,
    collectionDate: '2026-12-01',
    collectables,
    methods: new Map(methods.map((m) => [m.id, m])),
    defaultMethodOf: (customerId) => methods.find((m) => m.customerId === customerId && m.isDefault)?.id ?? null,
    uses: (key) => uses[key] ?? [],
  });
}

describe('planRun', () => {
  it.each([
    ['no method at all', [], 'no_payment_method'],
    ['a bank transfer', [method('a', { type: 'bank_transfer', customerId: 'c' })], 'no_mandate'],
    ['a direct debit without mandate reference', [method('a', { customerId: 'c', mandateReference: null })], 'no_mandate'],
    ['a mandate reference outside the SEPA character set', [method('a', { customerId: 'c', mandateReference: 'M_1' })], 'no_mandate'],
    ['a mandate signed 36 months and a day before, never used', [method('a', { customerId: 'c', mandateSignedAt: '2023-11-30' })], 'mandate_expired'],
  ])('skips a customer with %s', (_, methods, reason) => {
    const result = plan(methods as PaymentMethod[], [collectable('c'), collectable('c', { paymentId: null, paymentType: 'payment', invoiceId: 'invoice-1', amount: 1428n })]);
    expect(result.items).toEqual([]);
    expect(result.skipped).toEqual([{ customerId: 'c', reason, message: expect.any(String), paymentIds: ['payment-of-c'], invoiceIds: ['invoice-1'] }]);
  });

  it('takes a mandate signed exactly 36 months before', () => {
    expect(plan([method('a', { customerId: 'c', mandateSignedAt: '2023-12-01' })], [collectable('c')]).items).toHaveLength(1);
  });

  it('uses the method a payment names over the default, and FRST until a first collection went through', () => {
    const main = method('a', { customerId: 'c' });
    const named = method('b', { customerId: 'c', isDefault: false });
    const result = plan([main, named], [collectable('c'), collectable('c', { paymentId: 'p2', paymentMethodId: 'b' })], {
      [mandateKey(main)]: [{ collectionDate: '2026-11-01', sequenceType: 'FRST', failed: false }],
      [mandateKey(named)]: [{ collectionDate: '2026-11-01', sequenceType: 'FRST', failed: true }],
    });
    expect(result.items.map((i) => [i.collectable.paymentId, i.method.id, i.sequenceType])).toEqual([
      ['payment-of-c', 'a', 'RCUR'],
      ['p2', 'b', 'FRST'],
    ]);
    expect(result.skipped).toEqual([]);
  });

  it('a new IBAN is a new mandate version: FRST again', () => {
    const old = method('a', { customerId: 'c' });
    const moved = method('a', { customerId: 'c', iban: 'DE02120300000000202051' });
    const uses = { [mandateKey(old)]: [{ collectionDate: '2026-11-01', sequenceType: 'FRST' as const, failed: false }] };
    expect(plan([moved], [collectable('c')], uses).items[0]!.sequenceType).toBe('FRST');
    expect(plan([old], [collectable('c')], uses).items[0]!.sequenceType).toBe('RCUR');
  });

  it('credit transfers need an IBAN of any method, no mandate, and carry no sequence type', () => {
    const transfer = method('a', { customerId: 'c', type: 'bank_transfer', mandateReference: null, mandateSignedAt: null });
    const noIban = method('b', { customerId: 'd', type: 'bank_transfer', iban: null });
    const result = plan([transfer, noIban], [collectable('c', { paymentType: 'refund' }), collectable('d', { paymentType: 'refund' })], {}, 'credit_transfer');
    expect(result.items.map((i) => [i.collectable.customerId, i.sequenceType])).toEqual([['c', null]]);
    expect(result.skipped.map((s) => [s.customerId, s.reason])).toEqual([['d', 'no_iban']]);
  });
});

describe('collection dates', () => {
  it.each([
    // Monday 2026-11-23: a direct debit from Tuesday on, a credit transfer from today on.
    ['direct_debit', '2026-11-24', '2026-11-23', null],
    ['direct_debit', '2026-11-23', '2026-11-23', 'at the earliest'],
    ['credit_transfer', '2026-11-23', '2026-11-23', null],
    ['credit_transfer', '2026-11-20', '2026-11-23', 'in the past'],
    ['direct_debit', '2026-11-28', '2026-11-23', 'not a TARGET2 business day'],
    ['direct_debit', '2026-12-25', '2026-11-23', 'not a TARGET2 business day'],
    ['direct_debit', '2027-03-29', '2026-11-23', 'not a TARGET2 business day'],
    // Friday's file: Monday; Saturday's file is processed on Monday, so Tuesday at the earliest.
    ['direct_debit', '2026-11-30', '2026-11-27', null],
    ['direct_debit', '2026-11-30', '2026-11-28', 'at the earliest'],
    ['direct_debit', '2026-12-01', '2026-11-28', null],
  ] as const)('%s on %s, created %s', (type, date, today, problem) => {
    const found = collectionDateProblem(type, date, today);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toContain(problem);
  });
});

describe('the earliest run date (what a run without collectionDate takes)', () => {
  it.each([
    ['direct_debit', '2026-11-23', '2026-11-24'],
    ['direct_debit', '2026-11-28', '2026-12-01'],
    ['credit_transfer', '2026-11-23', '2026-11-23'],
    ['credit_transfer', '2026-11-28', '2026-11-30'],
    ['credit_transfer', '2026-12-24', '2026-12-24'],
    ['credit_transfer', '2026-12-25', '2026-12-28'],
  ] as const)('%s created %s: %s', (type, today, earliest) => {
    expect(earliestRunDate(type, today)).toBe(earliest);
    expect(collectionDateProblem(type, earliest, today)).toBeNull();
  });
});

describe('the payment run aggregate', () => {
  const seller = { name: 'Acme', iban: 'DE89370400440532013000', bic: null, address: null, creditorId: 'DE98ZZZ09999999999' };
  const open = () => PaymentRun.open({ id: 'r', accountId: 'x', type: 'direct_debit', collectionDate: '2026-12-01', dueUntil: '2026-12-01', siteIds: null, seller }, new Date(0));

  it('cancels while no payment has an outcome, once', () => {
    const run = open();
    expect(run.cancel(1, new Date(1))).toMatchObject({ ok: false, code: 'payment_run_not_cancellable' });
    expect(run.state).toBe('open');
    expect(run.cancel(0, new Date(1))).toEqual({ ok: true });
    expect(run).toMatchObject({ state: 'cancelled', cancelledAt: new Date(1) });
    expect(run.cancel(0, new Date(2)).ok).toBe(false);
    expect(run.close(0, new Date(2)).ok).toBe(false);
  });

  it('closes once nothing awaits an outcome', () => {
    const run = open();
    expect(run.close(2, new Date(1)).ok).toBe(false);
    expect(run.close(0, new Date(1)).ok).toBe(true);
    expect(run).toMatchObject({ state: 'closed', closedAt: new Date(1) });
    expect(run.cancel(0, new Date(2)).ok).toBe(false);
  });

  it('takes the count and the exact control sum of its payments', () => {
    const run = open();
    run.take([1n, 999_999_999_99n, 10n], []);
    expect([run.paymentsCount, run.controlSum]).toEqual([3, 1_000_000_000_10n]);
  });

  it('names the profile fields a run of each type needs', () => {
    const bare = { companyName: ' ', address: null, bankAccount: null, sepaCreditorId: null };
    expect(runSellerOf(bare, 'direct_debit').missing).toEqual(['companyName', 'bankAccount.iban', 'sepaCreditorId']);
    expect(runSellerOf(bare, 'credit_transfer').missing).toEqual(['companyName', 'bankAccount.iban']);
    const full = { companyName: 'Acme', address: null, bankAccount: { accountHolder: null, iban: 'DE89370400440532013000', bic: null }, sepaCreditorId: 'DE98ZZZ09999999999' };
    expect(runSellerOf(full, 'direct_debit').seller).toEqual({ name: 'Acme', iban: 'DE89370400440532013000', bic: null, address: null, creditorId: 'DE98ZZZ09999999999' });
    expect(runSellerOf(full, 'credit_transfer').seller?.creditorId).toBeNull();
  });
});

describe('a payment in a run', () => {
  it.each(PAYMENT_STATES)('from %s: submitted only from pending, withdrawn only from submitted', (from) => {
    const payment = Object.assign(new Payment(), { state: from, updatedAt: new Date(0) });
    expect(submitPayment(payment, new Date(1))).toBe(from === 'pending');
    expect(payment.state).toBe(from === 'pending' ? 'submitted' : from);
    const other = Object.assign(new Payment(), { state: from, updatedAt: new Date(0) });
    expect(withdrawPayment(other, new Date(1))).toBe(from === 'submitted');
    expect(other.state).toBe(from === 'submitted' ? 'pending' : from);
    expect(other.updatedAt).toEqual(new Date(from === 'submitted' ? 1 : 0));
  });
});
