import { describe, expect, it } from 'vitest';
import type { InvoiceDraft } from '../../../core/domain/billing/invoice-draft.js';
import {
  INVOICE_KINDS,
  INVOICE_STATES,
  Invoice,
  invoiceOfDraft,
  LineItem,
  linesOfDraft,
  PAYMENT_TERM_DAYS,
  type InvoiceKind,
  type InvoiceRefusal,
  type InvoiceState,
  type Transition,
} from '../../../core/domain/billing/invoice.js';

const T0 = new Date('2026-11-01T10:00:00.000Z');
const T1 = new Date('2026-12-31T23:30:00.000Z');

/** Deterministic ids: `id-1`, `id-2`, … */
function ids(): () => string {
  let next = 0;
  return () => `id-${++next}`;
}

const DRAFT: InvoiceDraft = {
  periodStart: '2026-10-01',
  periodEnd: '2026-11-01',
  lines: [
    {
      description: 'Arbeitspreis',
      kind: 'energy',
      quantity: 745_000n,
      quantityScale: 3,
      unit: 'kWh',
      unitPrice: 321_000n,
      netAmount: 23_915n,
      taxRateId: 'vat',
      taxRate: 1900n,
      periodStart: '2026-10-01',
      periodEnd: '2026-11-01',
      priceComponentId: 'energy',
      priceId: 'price-1',
      meterId: 'meter-1',
    },
    {
      description: 'Grundpreis',
      kind: 'base_fee',
      quantity: 1_000_000n,
      quantityScale: 6,
      unit: 'month',
      unitPrice: 12_000_000n,
      netAmount: 1_200n,
      taxRateId: 'vat',
      taxRate: 1900n,
      periodStart: '2026-10-01',
      periodEnd: '2026-11-01',
      priceComponentId: 'base',
      priceId: 'price-2',
      meterId: null,
    },
  ],
  netTotal: 25_115n,
  taxes: [{ taxRateId: 'vat', percentage: 1900n, netAmount: 25_115n, taxAmount: 4_772n }],
  grossTotal: 29_887n,
  prepaymentsTotal: 5_000n,
  amountDue: 24_887n,
};

function drafted(): { invoice: Invoice; lines: LineItem[] } {
  return invoiceOfDraft(DRAFT, { accountId: 'acc', contractId: 'con', customerId: 'cus', billRunId: 'run', templateId: 'tpl', prepaymentIds: ['pre-1'], now: T0, newId: ids() });
}

/** An invoice of `kind` in `state`, as stored (the transitions that led there are not the point). */
function invoiceIn(kind: InvoiceKind, state: InvoiceState): Invoice {
  const { invoice } = drafted();
  return Object.assign(invoice, { kind, state }, state === 'draft' ? {} : { number: 'INV-2026-000001', issuedAt: T0, dueDate: '2026-11-15' });
}

const refusal = <T>(result: Transition<T>): InvoiceRefusal['code'] | null => (result.ok ? null : result.refusal.code);

describe('drafting an invoice from the billing engine', () => {
  it('keeps the amounts as integers, numbers the lines in order, and has no number yet', () => {
    const { invoice, lines } = drafted();
    expect(invoice).toMatchObject({
      id: 'id-1',
      kind: 'invoice',
      state: 'draft',
      number: null,
      issuedAt: null,
      dueDate: null,
      billRunId: 'run',
      contractId: 'con',
      customerId: 'cus',
      periodStart: '2026-10-01',
      periodEnd: '2026-11-01',
      netTotal: 25_115n,
      taxes: [{ taxRateId: 'vat', percentage: 1900n, netAmount: 25_115n, taxAmount: 4_772n }],
      grossTotal: 29_887n,
      prepaymentsTotal: 5_000n,
      amountDue: 24_887n,
      prepaymentIds: ['pre-1'],
      cancelsInvoiceId: null,
      createdAt: T0,
    });
    expect(lines.map((l) => [l.id, l.invoiceId, l.position, l.quantity, l.netAmount])).toEqual([
      ['id-2', 'id-1', 0, 745_000n, 23_915n],
      ['id-3', 'id-1', 1, 1_000_000n, 1_200n],
    ]);
  });
});

describe('drafting a draft again', () => {
  it('takes the new draft\'s period, totals and prepayments and the contract\'s customer now, keeps the invoice, and gives lines of the same invoice', () => {
    const { invoice } = drafted();
    const again: InvoiceDraft = {
      ...DRAFT,
      periodStart: '2026-10-05',
      lines: [{ ...DRAFT.lines[0]!, quantity: 800_000n, netAmount: 25_680n }],
      netTotal: 25_680n,
      taxes: [{ taxRateId: 'vat', percentage: 1900n, netAmount: 25_680n, taxAmount: 4_879n }],
      grossTotal: 30_559n,
      prepaymentsTotal: 0n,
      amountDue: 30_559n,
    };
    expect(invoice.redraft(again, { customerId: 'cus-2', prepaymentIds: [] }, T1).ok).toBe(true);
    expect(invoice).toMatchObject({
      id: 'id-1',
      state: 'draft',
      number: null,
      customerId: 'cus-2',
      periodStart: '2026-10-05',
      periodEnd: '2026-11-01',
      netTotal: 25_680n,
      taxes: [{ taxRateId: 'vat', percentage: 1900n, netAmount: 25_680n, taxAmount: 4_879n }],
      grossTotal: 30_559n,
      prepaymentsTotal: 0n,
      amountDue: 30_559n,
      prepaymentIds: [],
      createdAt: T0,
      updatedAt: T1,
    });
    const lines = linesOfDraft(again, invoice, { now: T1, newId: ids() });
    expect(lines.map((l) => [l.id, l.invoiceId, l.contractId, l.position, l.quantity, l.netAmount, l.createdAt])).toEqual([['id-1', 'id-1', 'con', 0, 800_000n, 25_680n, T1]]);
  });
});

describe('invoice transitions', () => {
  type Action = 'issue' | 'cancel' | 'markPaid' | 'reopen' | 'redraft';
  const act = (invoice: Invoice, action: Action): Transition<unknown> => {
    if (action === 'redraft') return invoice.redraft(DRAFT, { customerId: 'cus', prepaymentIds: [] }, T1);
    if (action === 'issue') return invoice.issue({ sequence: 7, issuedAt: T1, issueDate: '2027-01-01' });
    if (action === 'cancel') return invoice.cancel([], { templateId: 'cn-tpl', now: T1, newId: ids() });
    if (action === 'markPaid') return invoice.markPaid(T1);
    return invoice.reopen(T1);
  };

  // [kind, from state, action, resulting state, or the refusal's code]
  const table: Array<[InvoiceKind, InvoiceState, Action, InvoiceState | InvoiceRefusal['code']]> = [
    ['invoice', 'draft', 'issue', 'issued'],
    ['invoice', 'issued', 'issue', 'invoice_not_draft'],
    ['invoice', 'paid', 'issue', 'invoice_not_draft'],
    ['invoice', 'cancelled', 'issue', 'invoice_not_draft'],
    ['credit_note', 'draft', 'issue', 'issued'],
    ['credit_note', 'issued', 'issue', 'invoice_not_draft'],
    ['invoice', 'issued', 'cancel', 'cancelled'],
    ['invoice', 'draft', 'cancel', 'invoice_not_cancellable'],
    ['invoice', 'paid', 'cancel', 'cancelled'],
    ['invoice', 'cancelled', 'cancel', 'invoice_not_cancellable'],
    ['credit_note', 'issued', 'cancel', 'invoice_not_cancellable'],
    ['credit_note', 'paid', 'cancel', 'invoice_not_cancellable'],
    ['credit_note', 'draft', 'cancel', 'invoice_not_cancellable'],
    ['invoice', 'issued', 'markPaid', 'paid'],
    ['credit_note', 'issued', 'markPaid', 'paid'],
    ['invoice', 'draft', 'markPaid', 'invoice_not_issued'],
    ['invoice', 'paid', 'markPaid', 'invoice_not_issued'],
    ['invoice', 'cancelled', 'markPaid', 'invoice_not_issued'],
    ['invoice', 'paid', 'reopen', 'issued'],
    ['invoice', 'draft', 'reopen', 'invoice_not_paid'],
    ['invoice', 'issued', 'reopen', 'invoice_not_paid'],
    ['invoice', 'cancelled', 'reopen', 'invoice_not_paid'],
    ['invoice', 'draft', 'redraft', 'draft'],
    ['invoice', 'issued', 'redraft', 'invoice_not_draft'],
    ['invoice', 'paid', 'redraft', 'invoice_not_draft'],
    ['invoice', 'cancelled', 'redraft', 'invoice_not_draft'],
  ];

  it.each(table)('%s %s: %s → %s', (kind, state, action, outcome) => {
    const invoice = invoiceIn(kind, state);
    const before = { ...invoice };
    const result = act(invoice, action);
    if ((INVOICE_STATES as readonly string[]).includes(outcome)) {
      expect(refusal(result)).toBeNull();
      expect(invoice.state).toBe(outcome);
      expect(invoice.updatedAt).toEqual(T1);
    } else {
      expect(refusal(result)).toBe(outcome);
      expect({ ...invoice }).toEqual(before);
    }
  });

  it('covers every kind, state and action', () => {
    const actions: Action[] = ['issue', 'cancel', 'markPaid', 'reopen', 'redraft'];
    for (const kind of INVOICE_KINDS) {
      for (const state of INVOICE_STATES) {
        for (const action of actions) {
          const outcome = act(invoiceIn(kind, state), action);
          // Each transition starts from the states named here (cancelling: of invoices only).
          const allowed = { issue: ['draft'], cancel: kind === 'invoice' ? ['issued', 'paid'] : [], markPaid: ['issued'], reopen: ['paid'], redraft: ['draft'] }[action];
          expect(outcome.ok, `${kind} ${state} ${action}`).toBe(allowed.includes(state));
        }
      }
    }
  });

  it('answers the messages the API shows', () => {
    expect(invoiceIn('invoice', 'draft').cancel([], { templateId: 't', now: T1, newId: ids() }).refusal).toEqual({
      code: 'invoice_not_cancellable',
      message: 'Only an issued or paid invoice can be cancelled; this invoice is draft.',
    });
    expect(invoiceIn('credit_note', 'issued').cancel([], { templateId: 't', now: T1, newId: ids() }).refusal?.message).toBe(
      'Only an issued or paid invoice can be cancelled; this credit note is issued.',
    );
  });
});

describe('issuing', () => {
  it('numbers by kind and the issue date’s year, and is due 14 days after the issue date', () => {
    const { invoice } = drafted();
    // 23:30 UTC on Dec 31 is Jan 1 in Berlin: the account's calendar date decides year and due date.
    expect(invoice.issue({ sequence: 42, issuedAt: T1, issueDate: '2027-01-01' }).ok).toBe(true);
    expect(PAYMENT_TERM_DAYS).toBe(14);
    expect(invoice).toMatchObject({ state: 'issued', number: 'INV-2027-000042', issuedAt: T1, dueDate: '2027-01-15', updatedAt: T1 });
    const credit = invoiceIn('credit_note', 'draft');
    credit.issue({ sequence: 1, issuedAt: T0, issueDate: '2026-11-01' });
    expect(credit).toMatchObject({ number: 'CN-2026-000001', dueDate: '2026-11-15' });
  });
});

describe('cancelling', () => {
  it('answers the credit note with every amount and line negated, and marks the invoice cancelled', () => {
    const { invoice, lines } = drafted();
    invoice.issue({ sequence: 1, issuedAt: T0, issueDate: '2026-11-01' });
    const result = invoice.cancel(lines, { templateId: 'cn-tpl', now: T1, newId: ids() });
    expect(result.ok).toBe(true);
    const { invoice: credit, lines: negated } = result.value!;
    expect(invoice).toMatchObject({ state: 'cancelled', number: 'INV-2026-000001', updatedAt: T1, prepaymentIds: ['pre-1'] });
    expect(credit).toMatchObject({
      id: 'id-1',
      kind: 'credit_note',
      state: 'draft',
      number: null,
      issuedAt: null,
      dueDate: null,
      cancelsInvoiceId: invoice.id,
      contractId: 'con',
      customerId: 'cus',
      billRunId: 'run',
      periodStart: '2026-10-01',
      periodEnd: '2026-11-01',
      templateId: 'cn-tpl',
      netTotal: -25_115n,
      taxes: [{ taxRateId: 'vat', percentage: 1900n, netAmount: -25_115n, taxAmount: -4_772n }],
      grossTotal: -29_887n,
      prepaymentsTotal: -5_000n,
      amountDue: -24_887n,
      prepaymentIds: [],
      createdAt: T1,
      updatedAt: T1,
    });
    expect(negated.map((l) => [l.id, l.invoiceId, l.position, l.quantity, l.unitPrice, l.netAmount, l.taxRate, l.priceId, l.createdAt])).toEqual([
      ['id-2', 'id-1', 0, -745_000n, 321_000n, -23_915n, 1900n, 'price-1', T1],
      ['id-3', 'id-1', 1, -1_000_000n, 12_000_000n, -1_200n, 1900n, 'price-2', T1],
    ]);
    // The credit note issues like any draft.
    expect(credit.issue({ sequence: 1, issuedAt: T1, issueDate: '2027-01-01' }).ok).toBe(true);
    expect(credit.number).toBe('CN-2027-000001');
  });

  it('does not depend on the order of the lines, and ignores lines of other invoices', () => {
    const cancelWith = (order: (lines: LineItem[]) => LineItem[]) => {
      const { invoice, lines } = drafted();
      invoice.issue({ sequence: 1, issuedAt: T0, issueDate: '2026-11-01' });
      const foreign = LineItem.of({ ...lines[0]!, id: 'other', invoiceId: 'another invoice' });
      return invoice.cancel(order([...lines, foreign]), { templateId: 't', now: T1, newId: ids() }).value!.lines.map((l) => [l.position, l.netAmount]);
    };
    expect(cancelWith((lines) => [...lines].reverse())).toEqual(cancelWith((lines) => lines));
    expect(cancelWith((lines) => lines)).toEqual([
      [0, -23_915n],
      [1, -1_200n],
    ]);
  });

  it('leaves the invoice as it was when it refuses', () => {
    const { invoice, lines } = drafted();
    expect(refusal(invoice.cancel(lines, { templateId: 't', now: T1, newId: ids() }))).toBe('invoice_not_cancellable');
    expect(invoice).toMatchObject({ state: 'draft', updatedAt: T0 });
  });
});

describe('deducting prepayments at issue', () => {
  const prepayment = (id: string, amount: bigint, state = 'received', lockedAt: Date | null = null) => ({ id, amount, state, lockedAt });

  it('deducts what is received and deducted by no other invoice at issue, at its amount then, whatever the draft deducted', () => {
    const cases: Array<[string, string[], ReturnType<typeof prepayment>[], string[], bigint]> = [
      ['as drafted', ['pre-1'], [prepayment('pre-1', 5_000n)], ['pre-1'], 5_000n],
      ['corrected since', ['pre-1'], [prepayment('pre-1', 6_000n)], ['pre-1'], 6_000n],
      ['returned since', ['pre-1'], [prepayment('pre-1', 5_000n, 'failed')], [], 0n],
      ['deducted by another invoice', ['pre-1'], [prepayment('pre-1', 5_000n, 'received', T0)], [], 0n],
      ['gone', ['pre-1'], [], [], 0n],
      ['received since drafting', [], [prepayment('pre-1', 5_000n), prepayment('pre-2', 7_000n)], ['pre-1', 'pre-2'], 12_000n],
      ['one of two returned, one received since', ['pre-1'], [prepayment('pre-1', 5_000n, 'failed'), prepayment('pre-2', 7_000n)], ['pre-2'], 7_000n],
    ];
    for (const [name, draftedIds, prepayments, ids, total] of cases) {
      const { invoice } = drafted();
      invoice.prepaymentIds = draftedIds;
      expect(invoice.deductAtIssue(prepayments).map((p) => p.id), name).toEqual(ids);
      expect([invoice.prepaymentIds, invoice.prepaymentsTotal, invoice.amountDue], name).toEqual([ids, total, 29_887n - total]);
    }
    // In the order given (issuing reads them by due date).
    const { invoice } = drafted();
    expect(invoice.deductAtIssue([prepayment('pre-2', 7_000n), prepayment('pre-1', 5_000n)]).map((p) => p.id)).toEqual(['pre-2', 'pre-1']);
  });
});
