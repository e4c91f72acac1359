import { addDays } from '../time/calendar-date.js';
import type { InvoiceDraft } from './invoice-draft.js';
import type { Cents, Micros } from './money.js';
import type { PriceComponentKind, PriceUnit } from './price.js';

export const INVOICE_KINDS = ['invoice', 'credit_note'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];
export const INVOICE_STATES = ['draft', 'issued', 'paid', 'cancelled'] as const;
export type InvoiceState = (typeof INVOICE_STATES)[number];

/** One tax rate's share of an invoice. */
export interface InvoiceTax {
  taxRateId: string;
  /** Hundredths of a per cent. */
  percentage: bigint;
  netAmount: Cents;
  taxAmount: Cents;
}

/** Why an invoice refuses a transition: the code and message the API answers. */
export interface InvoiceRefusal {
  code: 'invoice_not_draft' | 'invoice_not_cancellable' | 'invoice_not_issued' | 'invoice_not_paid';
  message: string;
}

/** A transition's outcome: done (with what it answers), or refused and nothing changed. */
export type Transition<T = undefined> = { ok: true; value: T; refusal?: never } | { ok: false; refusal: InvoiceRefusal; value?: never };

const done = <T>(value: T): Transition<T> => ({ ok: true, value });
const refused = (code: InvoiceRefusal['code'], message: string): Transition<never> => ({ ok: false, refusal: { code, message } });

/** Days between issue and due date. */
export const PAYMENT_TERM_DAYS = 14;

const NUMBER_PREFIX: Record<InvoiceKind, string> = { invoice: 'INV', credit_note: 'CN' };

/** `INV-2026-000001`: per account, kind and issue year, without gaps. */
export function invoiceNumber(kind: InvoiceKind, year: number, sequence: number): string {
  return `${NUMBER_PREFIX[kind]}-${year}-${String(sequence).padStart(6, '0')}`;
}

/** The year an issue date numbers in (each account, kind and year counts from 1). */
export const numberingYear = (issueDate: string): number => Number(issueDate.slice(0, 4));

/** What issuing gives a draft: its number in the sequence of its kind and the issue date's year. */
export interface Issue {
  sequence: number;
  issuedAt: Date;
  /** The calendar date of `issuedAt` in the account's timezone. */
  issueDate: string;
}

/** What a credit note needs beyond the invoice it cancels. */
export interface CreditNoteOptions {
  templateId: string;
  now: Date;
  /** Ids of the credit note and of each of its lines. */
  newId: () => string;
}

/** An invoice (or credit note) with its lines: what drafting and cancelling create. */
export interface InvoiceWithLines {
  invoice: Invoice;
  lines: LineItem[];
}

type Fields<T> = { [K in keyof T as T[K] extends (...args: never[]) => unknown ? never : K]: T[K] };

/**
 * The invoice aggregate: money in integer units (bigint), states moved only by its transitions —
 * draft → issued (`issue`) → paid (`markPaid`) → issued (`reopen`), and an issued or paid invoice
 * `cancel`led by a credit note. Each transition checks the state it starts from and refuses with a
 * typed result otherwise, changing nothing.
 */
export class Invoice {
  id!: string;
  accountId!: string;
  kind!: InvoiceKind;
  /** Null while draft. */
  number!: string | null;
  contractId!: string;
  customerId!: string;
  billRunId!: string | null;
  periodStart!: string;
  periodEnd!: string;
  state!: InvoiceState;
  netTotal!: Cents;
  taxes!: InvoiceTax[];
  grossTotal!: Cents;
  prepaymentsTotal!: Cents;
  /** grossTotal - prepaymentsTotal; negative: a credit to the customer. */
  amountDue!: Cents;
  /** The received prepayments the invoice deducts: while a draft, those deductible when drafted; from issue, those it deducted then, locked (`deductAtIssue`). */
  prepaymentIds!: string[];
  issuedAt!: Date | null;
  dueDate!: string | null;
  templateId!: string;
  cancelsInvoiceId!: string | null;
  createdAt!: Date;
  updatedAt!: Date;

  static of(fields: Fields<Invoice>): Invoice {
    return Object.assign(new Invoice(), fields);
  }

  /**
   * A draft deducts the prepayments of its contract that issuing finds deductible (received, due
   * before the period end, deducted by no other invoice; read and locked by the caller), in the
   * order given, at their amounts then; the amount due follows. Answers them. What the draft showed
   * is a preview: a prepayment received since drafting is deducted now, and one returned, corrected
   * or deducted by another invoice meanwhile is not counted as it was, or twice.
   */
  deductAtIssue(prepayments: readonly DeductiblePrepayment[]): DeductiblePrepayment[] {
    const deducted = prepayments.filter((prepayment) => prepayment.state === 'received' && prepayment.lockedAt === null);
    this.prepaymentIds = deducted.map((p) => p.id);
    this.prepaymentsTotal = deducted.reduce((total, p) => total + p.amount, 0n);
    this.amountDue = this.grossTotal - this.prepaymentsTotal;
    return deducted;
  }

  /**
   * A draft drafted again from the data as it stands now (what it was drafted from changed): the
   * new draft's period and totals, the contract's customer now and the prepayments the draft
   * deducts; its lines are `linesOfDraft`.
   */
  redraft(draft: InvoiceDraft, owner: Pick<DraftOwner, 'customerId' | 'prepaymentIds'>, now: Date): Transition {
    if (this.state !== 'draft') return refused('invoice_not_draft', `Only a draft is drafted again; this ${this.label} is ${this.state}.`);
    Object.assign(this, totalsOf(draft));
    this.customerId = owner.customerId;
    this.prepaymentIds = [...owner.prepaymentIds];
    this.updatedAt = now;
    return done(undefined);
  }

  /** Draft → issued: its number, the issue instant, and the due date `PAYMENT_TERM_DAYS` after the issue date. */
  issue({ sequence, issuedAt, issueDate }: Issue): Transition {
    if (this.state !== 'draft') return refused('invoice_not_draft', `Only a draft is issued; this ${this.label} is ${this.state}.`);
    this.number = invoiceNumber(this.kind, numberingYear(issueDate), sequence);
    this.state = 'issued';
    this.issuedAt = issuedAt;
    this.dueDate = addDays(issueDate, PAYMENT_TERM_DAYS);
    this.updatedAt = issuedAt;
    return done(undefined);
  }

  /**
   * Issued or paid invoice → cancelled. Answers its credit note, a draft to issue: every amount and
   * line negated (lines in the invoice's order, whatever order they come in), no prepayments of its
   * own, `cancelsInvoiceId` naming this invoice. A paid invoice is cancelled like a partly paid one:
   * what its payments settled is the caller's to give back (`refundOwed`).
   */
  cancel(lines: readonly LineItem[], { templateId, now, newId }: CreditNoteOptions): Transition<InvoiceWithLines> {
    if (this.kind !== 'invoice' || (this.state !== 'issued' && this.state !== 'paid')) {
      return refused('invoice_not_cancellable', `Only an issued or paid invoice can be cancelled; this ${this.label} is ${this.state}.`);
    }
    const creditNote = Invoice.of({
      id: newId(),
      accountId: this.accountId,
      kind: 'credit_note',
      number: null,
      contractId: this.contractId,
      customerId: this.customerId,
      billRunId: this.billRunId,
      periodStart: this.periodStart,
      periodEnd: this.periodEnd,
      state: 'draft',
      netTotal: -this.netTotal,
      taxes: this.taxes.map((t) => ({ taxRateId: t.taxRateId, percentage: t.percentage, netAmount: -t.netAmount, taxAmount: -t.taxAmount })),
      grossTotal: -this.grossTotal,
      prepaymentsTotal: -this.prepaymentsTotal,
      amountDue: -this.amountDue,
      prepaymentIds: [],
      issuedAt: null,
      dueDate: null,
      templateId,
      cancelsInvoiceId: this.id,
      createdAt: now,
      updatedAt: now,
    });
    const negated = lines
      .filter((line) => line.invoiceId === this.id)
      .sort((a, b) => a.position - b.position)
      .map((line) => LineItem.of({ ...line, id: newId(), invoiceId: creditNote.id, quantity: -line.quantity, netAmount: -line.netAmount, createdAt: now }));
    this.state = 'cancelled';
    this.updatedAt = now;
    return done({ invoice: creditNote, lines: negated });
  }

  /** Issued → paid (the received payments naming it cover what it asks for: `isSettled`). */
  markPaid(now: Date): Transition {
    if (this.state !== 'issued') return refused('invoice_not_issued', `Only an issued invoice is paid; this ${this.label} is ${this.state}.`);
    this.state = 'paid';
    this.updatedAt = now;
    return done(undefined);
  }

  /** Paid → issued again: a payment that settled it failed (or was taken back). */
  reopen(now: Date): Transition {
    if (this.state !== 'paid') return refused('invoice_not_paid', `Only a paid invoice is reopened; this ${this.label} is ${this.state}.`);
    this.state = 'issued';
    this.updatedAt = now;
    return done(undefined);
  }

  /** `invoice` or `credit note`, for messages. */
  private get label(): string {
    return this.kind.replace('_', ' ');
  }
}

export class LineItem {
  id!: string;
  accountId!: string;
  invoiceId!: string;
  contractId!: string;
  position!: number;
  description!: string;
  kind!: PriceComponentKind;
  /** Wh (scale 3, kWh in the API) or millionths of a month (scale 6). */
  quantity!: bigint;
  quantityScale!: number;
  unit!: PriceUnit;
  unitPrice!: Micros;
  netAmount!: Cents;
  taxRateId!: string;
  /** Hundredths of a per cent. */
  taxRate!: bigint;
  periodStart!: string;
  periodEnd!: string;
  priceComponentId!: string;
  /** The price version the line was billed at: such a price cannot change any more. */
  priceId!: string;
  meterId!: string | null;
  createdAt!: Date;

  static of(fields: Fields<LineItem>): LineItem {
    return Object.assign(new LineItem(), fields);
  }
}

/** Whose draft the billing engine computed, and what else the invoice records. */
export interface DraftOwner {
  accountId: string;
  contractId: string;
  customerId: string;
  billRunId: string | null;
  templateId: string;
  /** The received prepayments the draft deducted. */
  prepaymentIds: string[];
  now: Date;
  /** Ids of the invoice and of each of its lines. */
  newId: () => string;
}

/** What a draft invoice records of the billing engine's draft: its totals. */
function totalsOf(draft: InvoiceDraft): Pick<Invoice, 'periodStart' | 'periodEnd' | 'netTotal' | 'taxes' | 'grossTotal' | 'prepaymentsTotal' | 'amountDue'> {
  return {
    periodStart: draft.periodStart,
    periodEnd: draft.periodEnd,
    netTotal: draft.netTotal,
    taxes: draft.taxes.map((t) => ({ taxRateId: t.taxRateId, percentage: t.percentage, netAmount: t.netAmount, taxAmount: t.taxAmount })),
    grossTotal: draft.grossTotal,
    prepaymentsTotal: draft.prepaymentsTotal,
    amountDue: draft.amountDue,
  };
}

/** The lines of a draft invoice from the billing engine's draft. */
export function linesOfDraft(draft: InvoiceDraft, invoice: Pick<Invoice, 'id' | 'accountId' | 'contractId'>, { now, newId }: Pick<DraftOwner, 'now' | 'newId'>): LineItem[] {
  return draft.lines.map((line, position) =>
    LineItem.of({
      id: newId(),
      accountId: invoice.accountId,
      invoiceId: invoice.id,
      contractId: invoice.contractId,
      position,
      description: line.description,
      kind: line.kind,
      quantity: line.quantity,
      quantityScale: line.quantityScale,
      unit: line.unit,
      unitPrice: line.unitPrice,
      netAmount: line.netAmount,
      taxRateId: line.taxRateId,
      taxRate: line.taxRate,
      periodStart: line.periodStart,
      periodEnd: line.periodEnd,
      priceComponentId: line.priceComponentId,
      priceId: line.priceId,
      meterId: line.meterId,
      createdAt: now,
    }),
  );
}

/** A draft invoice (kind `invoice`, no number) with its lines, from the billing engine's draft. */
export function invoiceOfDraft(draft: InvoiceDraft, owner: DraftOwner): InvoiceWithLines {
  const { accountId, contractId, now } = owner;
  const invoice = Invoice.of({
    id: owner.newId(),
    accountId,
    kind: 'invoice',
    number: null,
    contractId,
    customerId: owner.customerId,
    billRunId: owner.billRunId,
    ...totalsOf(draft),
    state: 'draft',
    prepaymentIds: [...owner.prepaymentIds],
    issuedAt: null,
    dueDate: null,
    templateId: owner.templateId,
    cancelsInvoiceId: null,
    createdAt: now,
    updatedAt: now,
  });
  return { invoice, lines: linesOfDraft(draft, invoice, owner) };
}

/** A prepayment as issuing finds it (`Invoice.deductAtIssue`). */
export interface DeductiblePrepayment {
  id: string;
  state: string;
  amount: Cents;
  lockedAt: Date | null;
}
