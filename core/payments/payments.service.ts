import { randomUUID } from 'node:crypto';
import type { AccountRepository } from '../accounts/accounts.repository.js';
import type { Actor } from '../auth/actor.js';
import type { Clock } from '../clock.js';
import type { ContractRepository } from '../contracts/contracts.repository.js';
import { paymentTargetRefusal } from '../domain/billing/invoice-payments.js';
import { parseCents } from '../domain/billing/money.js';
import type { Contract } from '../domain/contracts/contract.js';
import { holdsPrepaymentDueDate, Payment } from '../domain/payments/payment.js';
import { judgePaymentChange, replacementOf, type PaymentRefusal } from '../domain/payments/payment-outcome.js';
import { calendarDateOf } from '../domain/time/calendar-date.js';
import type { InvoiceIssuer } from '../billing/invoices/invoice-issuer.js';
import type { InvoiceRepository } from '../billing/invoices/invoices.repository.js';
import { ConflictError, TooLargeError, ValidationError, type FieldError } from '../errors.js';
import { mergeUpdate } from '../patching.js';
import { listPage, loadOwned, type ListResult, type ResourceService } from '../resource.service.js';
import { causedBy, type EventOutbox } from '../events/outbox.js';
import { presentPayment, recordPayments } from './payment-events.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { parseEach, parseInput } from '../validation.js';
import {
  createPaymentCommand,
  listPaymentsQuery,
  MAX_PAYMENTS_PER_BATCH,
  paymentsBatchEnvelope,
  updatePaymentCommand,
  type CreatePaymentCommand,
  type PaymentView,
} from './payments.commands.js';
import type { PaymentMethodRepository, PaymentRepository } from './payments.repository.js';

export interface PaymentsDependencies {
  payments: PaymentRepository;
  invoices: InvoiceRepository;
  issuer: InvoiceIssuer;
  paymentMethods: PaymentMethodRepository;
  contracts: ContractRepository;
  accounts: AccountRepository;
  uow: UnitOfWork;
  clock: Clock;
  outbox: EventOutbox;
  /** Called in the transaction with the payments that just left `submitted` (the bank's outcome). */
  onOutcome?: (actor: Actor, payments: readonly Payment[]) => Promise<void>;
}

type PaymentFields = Omit<CreatePaymentCommand, 'lockedAt'>;
type DatedPayment = PaymentFields & { dueDate: string };
type Item = { index: number; value: DatedPayment };
const COMPARED_FIELDS = ['contractId', 'amount', 'type', 'dueDate', 'receivedAt', 'paymentMethodId', 'reference', 'invoiceId'] as const;
/** What a command sets of a stored payment. */
type StoredFields = Pick<Payment, (typeof COMPARED_FIELDS)[number] | 'state'>;
const comparable = (value: unknown): string | null => (value instanceof Date ? value.toISOString() : value === null ? null : String(value));

/** The fields besides `state` that a change alters. */
function changedFields(payment: Payment, next: StoredFields): string[] {
  return COMPARED_FIELDS.filter((field) => comparable(payment[field]) !== comparable(next[field]));
}

/** A refused state is a bad value of the request (400, on `state`); the others conflict with the payment as it is (409). */
function refusalError(refusal: PaymentRefusal): Error {
  return refusal.code === 'state_not_allowed' ? new ValidationError([{ path: 'state', code: refusal.code, message: refusal.message }]) : new ConflictError(refusal.code, refusal.message);
}

/**
 * Prepayments always name their due date (the command requires it); a payment or refund without
 * one is due on the day it was received, else on the day it was recorded, in the account's zone.
 */
function withDueDate(command: PaymentFields, recordedAt: Date, timeZone: string): DatedPayment {
  const dueDate = command.dueDate ?? calendarDateOf(command.receivedAt ? new Date(command.receivedAt) : recordedAt, timeZone);
  return { ...command, dueDate };
}

/**
 * Payments of contracts: created one by one or in all-or-nothing batches, changed within the
 * rules of `judgePaymentChange`, with what a failure sets off (invoices reopened, amounts due again).
 */
export class PaymentsService implements ResourceService<PaymentView> {
  constructor(private readonly deps: PaymentsDependencies) {}

  create(actor: Actor, input: unknown): Promise<PaymentView> {
    const command = parseInput(createPaymentCommand, input);
    return this.createAll(actor, [{ index: 0, value: command }], [], () => '').then(([payment]) => payment!);
  }

  /** Up to 1,000 payments, all or none; every invalid item is reported with its index. */
  async createBatch(actor: Actor, input: unknown): Promise<ListResult<PaymentView>> {
    const { payments } = parseInput(paymentsBatchEnvelope, input);
    if (payments.length > MAX_PAYMENTS_PER_BATCH) throw new TooLargeError('too_many_payments', `At most ${MAX_PAYMENTS_PER_BATCH} payments per batch; split it.`);
    const pathOf = (index: number) => `payments[${index}].`;
    const { valid, errors } = parseEach(createPaymentCommand, payments, pathOf);
    const data = await this.createAll(actor, valid, errors, pathOf);
    return { data, total: data.length };
  }

  async get(actor: Actor, id: string): Promise<PaymentView> {
    return presentPayment(await loadOwned(this.deps.payments, actor, 'payment', id));
  }

  list(actor: Actor, query: unknown): Promise<ListResult<PaymentView>> {
    return listPage(this.deps.payments, actor, listPaymentsQuery, query, (items) => items.map(presentPayment));
  }

  async listByContracts(actor: Actor, contractIds: readonly string[]): Promise<PaymentView[]> {
    return (await this.deps.payments.findByContractIds(actor.accountId, contractIds)).map(presentPayment);
  }

  async update(actor: Actor, id: string, patch: unknown): Promise<PaymentView> {
    return this.deps.uow.transactional(async () => {
      const stored = await loadOwned(this.deps.payments, actor, 'payment', id);
      // The invoices settling it locks first (the one it names, and a cancelled invoice's credit
      // note or a credit note's cancelled invoice), then the payment, the order in which settling
      // and refunds lock them: a return that cuts back this invoice's pending refunds holds the
      // invoice while it waits for them, and would deadlock with a change of one of them that held
      // it first.
      if (stored.invoiceId) await this.deps.issuer.lockSettlement(actor.accountId, [stored.invoiceId]);
      // Two requests recording one outcome at once would both set off its follow-ups: the later waits and sees the earlier's.
      const payment = (await this.deps.payments.lockByIds(actor.accountId, [id]))[0]!;
      const namedBefore = payment.invoiceId;
      const { lockedAt: _locked, ...current } = presentPayment(payment);
      const now = this.deps.clock.now();
      const { merged } = mergeUpdate({
        current,
        patch,
        patchSchema: updatePaymentCommand,
        createSchema: createPaymentCommand,
        adjust: (fields, changes) => {
          if ('state' in changes && !('receivedAt' in changes)) fields.receivedAt = fields.state === 'received' ? now.toISOString() : null;
        },
      });
      const dated = withDueDate(merged, payment.createdAt, await this.timeZoneOf(actor));
      const next = this.fields(dated, now);
      const verdict = judgePaymentChange({ type: next.type, from: payment.state, to: next.state, lockedAt: payment.lockedAt, changed: changedFields(payment, next) });
      if (!verdict.ok) throw refusalError(verdict.refusal);
      const siteOf = await this.check(actor, [{ index: 0, value: dated }], () => '', [], payment);
      Object.assign(payment, next, { updatedAt: now });
      const [view] = await recordPayments(this.deps.outbox, causedBy(actor), 'payment.updated', [payment], siteOf);
      const { outcome, reopenInvoice, dueAgain, refundsChanged } = verdict.followUps;
      if (dueAgain) {
        const replacement = replacementOf(payment, randomUUID(), now);
        if (replacement.type === 'refund' && replacement.invoiceId) {
          replacement.amount = await this.deps.issuer.refundDueAgain(actor.accountId, replacement.invoiceId, replacement.amount);
        }
        if (replacement.amount > 0n) {
          await this.deps.payments.addAfterStaged([replacement]);
          await recordPayments(this.deps.outbox, causedBy(actor), 'payment.created', [replacement], siteOf);
        }
      }
      // The invoice it named and the one it names (a correction may move it): refunds first, since
      // withdrawing one can settle a cancelled invoice's credit note.
      const named = unique([namedBefore, payment.invoiceId].filter((invoiceId): invoiceId is string => invoiceId !== null));
      if (refundsChanged) for (const invoiceId of named) await this.deps.issuer.reconcileRefunds(causedBy(actor), invoiceId, now);
      await this.deps.issuer.settle(causedBy(actor), named, now, reopenInvoice);
      if (outcome) await this.deps.onOutcome?.(actor, [payment]);
      return view!;
    });
  }

  private async createAll(
    actor: Actor,
    commands: readonly { index: number; value: PaymentFields }[],
    shapeErrors: readonly FieldError[],
    pathOf: (index: number) => string,
  ): Promise<PaymentView[]> {
    return this.deps.uow.transactional(async () => {
      const now = this.deps.clock.now();
      const timeZone = await this.timeZoneOf(actor);
      const items = commands.map(({ index, value }) => ({ index, value: withDueDate(value, now, timeZone) }));
      const siteOf = await this.check(actor, items, pathOf, [...shapeErrors, ...stateErrors(items, pathOf)]);
      const payments = items.map(({ value }) =>
        Object.assign(new Payment(), { id: randomUUID(), accountId: actor.accountId, lockedAt: null, replacesPaymentId: null, ...this.fields(value, now), createdAt: now, updatedAt: now }),
      );
      this.deps.payments.addAll(payments);
      const views = await recordPayments(this.deps.outbox, causedBy(actor), 'payment.created', payments, siteOf);
      await this.deps.issuer.settle(causedBy(actor), unique(payments.flatMap((p) => (p.invoiceId ? [p.invoiceId] : []))), now);
      return views;
    });
  }

  private async timeZoneOf(actor: Actor): Promise<string> {
    return (await this.deps.accounts.findAccount(actor.accountId))!.timezone;
  }

  private fields(command: DatedPayment, now: Date): StoredFields {
    const { contractId, type, state, dueDate, paymentMethodId, reference, invoiceId } = command;
    const receivedAt = state === 'received' ? (command.receivedAt ? new Date(command.receivedAt) : now) : null;
    return { contractId, amount: parseCents(command.amount)!, type, state, dueDate, receivedAt, paymentMethodId, reference, invoiceId };
  }

  /**
   * Every invalid item at once (shape and references), then one prepayment per contract and due
   * date. `changing` is the stored payment an update changes. Answers the site of each contract,
   * for the events.
   */
  private async check(
    actor: Actor,
    items: readonly Item[],
    pathOf: (index: number) => string,
    shapeErrors: readonly FieldError[],
    changing?: Payment,
  ): Promise<(contractId: string) => string> {
    const commands = items.map((item) => item.value);
    const contracts = new Map((await this.deps.contracts.findByIds(actor.accountId, unique(commands.map((c) => c.contractId)))).map((c) => [c.id, c]));
    const errors = [...shapeErrors, ...(await this.referenceErrors(actor, items, contracts, pathOf, changing?.invoiceId ?? null))].sort((x, y) =>
      x.path.localeCompare(y.path, 'en', { numeric: true }),
    );
    if (errors.length > 0) throw new ValidationError(errors);
    await this.assertOnePrepaymentPerDueDate(actor, items, pathOf, changing?.id);
    return (contractId) => contracts.get(contractId)!.siteId;
  }

  /**
   * Contracts (loaded by `check`), and payment methods of the contract's customer in one more
   * query. An invoice must take payments when a payment comes to name it (`paymentTargetRefusal`);
   * one it already names may since have been cancelled (a refund of a cancelled invoice is still
   * paid out).
   */
  private async referenceErrors(
    actor: Actor,
    items: readonly Item[],
    contracts: ReadonlyMap<string, Contract>,
    pathOf: (index: number) => string,
    namedInvoiceId: string | null,
  ): Promise<FieldError[]> {
    const methodIds = unique(items.flatMap(({ value }) => (value.paymentMethodId ? [value.paymentMethodId] : [])));
    const methods = new Map((await this.deps.paymentMethods.findByIds(actor.accountId, methodIds)).map((m) => [m.id, m]));
    const invoiceIds = unique(items.flatMap(({ value }) => (value.invoiceId ? [value.invoiceId] : [])));
    const invoices = new Map((await this.deps.invoices.findByIds(actor.accountId, invoiceIds)).map((i) => [i.id, i]));
    return items.flatMap(({ index, value: command }) => {
      const contract = contracts.get(command.contractId);
      const found: FieldError[] = [];
      if (!contract) found.push({ path: `${pathOf(index)}contractId`, code: 'reference_not_found', message: `No contract with id ${command.contractId}.` });
      if (command.paymentMethodId) {
        const method = methods.get(command.paymentMethodId);
        if (!method) found.push({ path: `${pathOf(index)}paymentMethodId`, code: 'reference_not_found', message: `No payment method with id ${command.paymentMethodId}.` });
        else if (contract && method.customerId !== contract.customerId) {
          found.push({ path: `${pathOf(index)}paymentMethodId`, code: 'payment_method_of_other_customer', message: `Payment method ${method.id} belongs to another customer than the contract's.` });
        }
      }
      if (command.invoiceId) {
        const invoice = invoices.get(command.invoiceId);
        const path = `${pathOf(index)}invoiceId`;
        if (!invoice) found.push({ path, code: 'reference_not_found', message: `No invoice with id ${command.invoiceId}.` });
        else if (contract && invoice.contractId !== contract.id) found.push({ path, code: 'invoice_of_other_contract', message: `Invoice ${invoice.id} bills another contract.` });
        else if (invoice.id !== namedInvoiceId) {
          const refusal = paymentTargetRefusal(invoice, command.type);
          if (refusal) found.push({ path, code: 'invoice_not_issued', message: refusal });
        }
      }
      return found;
    });
  }

  /** The friendly answer; the partial unique index on (contract, due date) is what guarantees it. */
  private async assertOnePrepaymentPerDueDate(actor: Actor, items: readonly Item[], pathOf: (index: number) => string, exceptId?: string): Promise<void> {
    const prepayments = items.filter(({ value }) => holdsPrepaymentDueDate(value)).map(({ index, value }) => ({ index, value, key: `${value.contractId}/${value.dueDate}` }));
    const existing = await this.deps.payments.prepaymentsDue(actor.accountId, prepayments.map(({ value }) => value), exceptId);
    const taken = new Set(existing.map((p) => `${p.contractId}/${p.dueDate}`));
    const seen = new Set<string>();
    const duplicates = prepayments.filter(({ key }) => {
      const repeated = taken.has(key) || seen.has(key);
      seen.add(key);
      return repeated;
    });
    if (duplicates.length > 0) {
      const where = duplicates.map(({ index, value }) => `${pathOf(index) ? `item ${index}: ` : ''}contract ${value.contractId} on ${value.dueDate}`).join('; ');
      throw new ConflictError('prepayment_exists', `A contract has one prepayment per due date (${where}); change the existing one instead.`);
    }
  }
}

const unique = (ids: readonly string[]) => [...new Set(ids)];

/** The states new payments may not start in (`judgePaymentChange`), as field errors. */
function stateErrors(items: readonly Item[], pathOf: (index: number) => string): FieldError[] {
  return items.flatMap(({ index, value }) => {
    const verdict = judgePaymentChange({ type: value.type, from: null, to: value.state, lockedAt: null, changed: [] });
    return verdict.ok ? [] : [{ path: `${pathOf(index)}state`, code: verdict.refusal.code, message: verdict.refusal.message }];
  });
}
