import { randomUUID } from 'node:crypto';
import type { AccountRepository } from '../accounts/accounts.repository.js';
import type { TemplateRepository } from '../billing/catalogue/templates.service.js';
import type { InvoiceIssuer } from '../billing/invoices/invoice-issuer.js';
import type { Actor } from '../auth/actor.js';
import type { Clock } from '../clock.js';
import type { CustomerRepository } from '../customers/customers.repository.js';
import { customerDisplayName } from '../domain/customers/customer.js';
import { formatCents } from '../domain/billing/money.js';
import { pendingPayment, submitPayment, withdrawPayment } from '../domain/payments/payment.js';
import { planRun, type PlannedItem } from '../domain/payments/payment-run-plan.js';
import { collectionDateProblem, earliestRunDate, PaymentRun, PaymentRunItem, runSellerOf } from '../domain/payments/payment-run.js';
import { compactId } from '../domain/payments/sepa-text.js';
import { calendarDateOf } from '../domain/time/calendar-date.js';
import { ConflictError, ValidationError } from '../errors.js';
import { causedBy, type EventOutbox, type NewEvent } from '../events/outbox.js';
import { assertReferences } from '../references.js';
import { listPage, loadOwned, timestampsOf, type ListResult, type ResourceService } from '../resource.service.js';
import type { SiteRepository } from '../sites/sites.repository.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { parseInput } from '../validation.js';
import { recordPayments } from './payment-events.js';
import { paymentRunFile } from './payment-run-file.js';
import { remittanceText } from './remittance.js';
import {
  createPaymentRunCommand,
  listPaymentRunItemsQuery,
  listPaymentRunsQuery,
  type CreatePaymentRunCommand,
  type PaymentRunItemView,
  type PaymentRunView,
} from './payment-runs.commands.js';
import type { CollectableRow, PaymentRunRepository, RunCounts, RunItemRow } from './payment-runs.repository.js';
import type { PaymentMethodRepository, PaymentRepository } from './payments.repository.js';

export interface PaymentRunsDependencies {
  accounts: AccountRepository;
  templates: TemplateRepository;
  customers: CustomerRepository;
  sites: SiteRepository;
  paymentRuns: PaymentRunRepository;
  payments: PaymentRepository;
  paymentMethods: PaymentMethodRepository;
  uow: UnitOfWork;
  clock: Clock;
  outbox: EventOutbox;
  /** Settles the credit notes of cancelled invoices whose debits a cancelled run gives back. */
  issuer: Pick<InvoiceIssuer, 'settle' | 'lockSettlement'>;
}

type RunEventType = 'payment_run.created' | 'payment_run.closed' | 'payment_run.cancelled';

const unique = <T>(values: readonly T[]) => [...new Set(values)];

/**
 * SEPA payment runs: a direct debit run collects pending prepayments and the open amounts of issued
 * invoices; a credit transfer run pays out pending refunds. The run's payments are `submitted`
 * until each has an outcome (then the run closes) or the run is cancelled.
 */
export class PaymentRunsService implements ResourceService<PaymentRunView> {
  constructor(private readonly deps: PaymentRunsDependencies) {}

  async create(actor: Actor, input: unknown): Promise<PaymentRunView> {
    const command = parseInput(createPaymentRunCommand, input);
    const { deps } = this;
    return deps.uow.transactional(async () => {
      const account = (await deps.accounts.findAccount(actor.accountId))!;
      const now = deps.clock.now();
      const today = calendarDateOf(now, account.timezone);
      const collectionDate = command.collectionDate ?? earliestRunDate(command.type, today);
      const problem = collectionDateProblem(command.type, collectionDate, today);
      if (problem) throw new ValidationError([{ path: 'collectionDate', code: 'collection_date_invalid', message: problem }]);
      const { seller, missing } = runSellerOf(account, command.type);
      if (missing) throw new ConflictError('seller_profile_incomplete', `A ${command.type.replace('_', ' ')} file names the account as ${command.type === 'direct_debit' ? 'creditor' : 'payer'}; complete its profile first (PATCH /v1/accounts/{id}): ${missing.join(', ')}.`);
      const siteIds = await this.checkedSites(actor, command);
      // Two runs computing the open amounts of the same invoices at once would collect them twice.
      await deps.paymentRuns.lockCreation(actor.accountId);
      const run = PaymentRun.open(
        { id: randomUUID(), accountId: actor.accountId, type: command.type, collectionDate, dueUntil: command.dueUntil ?? collectionDate, siteIds, seller },
        now,
      );
      const rows = await deps.paymentRuns.collectables({ accountId: actor.accountId, type: run.type, dueUntil: run.dueUntil, siteIds });
      const plan = await this.plan(actor, run, rows);
      if (plan.items.length === 0) {
        const skipped = plan.skipped.length > 0 ? ` ${plan.skipped.length} customer(s) could not be included: ${plan.skipped.slice(0, 5).map((s) => `${s.customerId} (${s.reason})`).join(', ')}.` : '';
        throw new ConflictError('nothing_to_pay', `No payment is due by ${run.dueUntil} for a ${run.type.replace('_', ' ')}.${skipped}`);
      }
      run.take(plan.items.map((item) => item.collectable.amount), plan.skipped);
      deps.paymentRuns.add(run);
      const siteOf = new Map(rows.map((row) => [row.contractId, row.siteId]));
      await this.submit(actor, run, plan.items, (contractId) => siteOf.get(contractId)!);
      const view = await this.present(actor, [run]);
      await this.record(actor, 'payment_run.created', view[0]!, unique(rows.map((r) => r.siteId)));
      return view[0]!;
    });
  }

  async get(actor: Actor, id: string): Promise<PaymentRunView> {
    return (await this.present(actor, [await loadOwned(this.deps.paymentRuns, actor, 'payment run', id)]))[0]!;
  }

  list(actor: Actor, query: unknown): Promise<ListResult<PaymentRunView>> {
    return listPage(this.deps.paymentRuns, actor, listPaymentRunsQuery, query, (runs) => this.present(actor, runs));
  }

  async items(actor: Actor, id: string, query: unknown): Promise<ListResult<PaymentRunItemView>> {
    const page = parseInput(listPaymentRunItemsQuery, query, { unknownCode: 'unknown_parameter' });
    await loadOwned(this.deps.paymentRuns, actor, 'payment run', id);
    const { items, total } = await this.deps.paymentRuns.items(actor.accountId, id, page);
    return { data: items.map(presentItem), total };
  }

  /** A page of the items of each run of the actor's account among `runIds` (a list's runs, with one statement for all). */
  async itemsOfRuns(actor: Actor, runIds: readonly string[], query: unknown): Promise<Map<string, PaymentRunItemView[]>> {
    const page = parseInput(listPaymentRunItemsQuery, query, { unknownCode: 'unknown_parameter' });
    const byRun = await this.deps.paymentRuns.itemsOfRuns(actor.accountId, runIds, page);
    return new Map([...byRun].map(([runId, items]) => [runId, items.map(presentItem)]));
  }

  /** The SEPA XML; a cancelled run has none to send (409). */
  async file(actor: Actor, id: string): Promise<{ xml: string; fileName: string }> {
    const run = await loadOwned(this.deps.paymentRuns, actor, 'payment run', id);
    if (run.state === 'cancelled') throw new ConflictError('payment_run_cancelled', 'The run was cancelled and its payments returned to pending; create a new run.');
    const { items } = await this.deps.paymentRuns.items(actor.accountId, id);
    return { xml: paymentRunFile(run, items), fileName: `${run.type === 'direct_debit' ? 'pain.008' : 'pain.001'}-${run.collectionDate}-${compactId(run.id).slice(0, 8)}.xml` };
  }

  /** Open → cancelled while no payment has an outcome: its payments return to pending. */
  async cancel(actor: Actor, id: string): Promise<PaymentRunView> {
    const { deps } = this;
    return deps.uow.transactional(async () => {
      await loadOwned(deps.paymentRuns, actor, 'payment run', id);
      // A run's items are written with it and never change. Recording an outcome locks the
      // invoices it settles, then the payment, then its run; cancelling locks them in the same
      // order, or the two would deadlock over a payment of the run.
      const { items } = await deps.paymentRuns.items(actor.accountId, id);
      const invoiceIds = unique(items.flatMap((item) => (item.invoiceId ? [item.invoiceId] : [])));
      await deps.issuer.lockSettlement(actor.accountId, invoiceIds);
      const held = await deps.payments.lockByIds(actor.accountId, items.map((i) => i.paymentId));
      const run = (await deps.paymentRuns.lockById(actor.accountId, id))!;
      const counts = (await deps.paymentRuns.counts(actor.accountId, [id])).get(id)!;
      const now = deps.clock.now();
      const done = run.cancel(counts.received + counts.failed, now);
      if (!done.ok) throw new ConflictError(done.code, done.message);
      await deps.paymentRuns.release(actor.accountId, id);
      const payments = held.filter((p) => withdrawPayment(p, now));
      const sites = await deps.paymentRuns.contractSites(actor.accountId, id);
      await recordPayments(deps.outbox, causedBy(actor), 'payment.updated', payments, (contractId) => sites.get(contractId)!);
      // A debit of an invoice cancelled meanwhile is pending again, never to be collected: its credit note may be settled now.
      await deps.issuer.settle(causedBy(actor), invoiceIds, now);
      const [view] = await this.present(actor, [run]);
      await this.record(actor, 'payment_run.cancelled', view!, unique([...sites.values()]));
      return view!;
    });
  }

  /**
   * Closes the open runs holding these payments once none of their payments awaits an outcome.
   * Called in the transaction that recorded the outcomes.
   */
  async closeSettled(actor: Actor, paymentIds: readonly string[]): Promise<void> {
    const { deps } = this;
    for (const held of await deps.paymentRuns.openRunsHolding(actor.accountId, paymentIds)) {
      const run = (await deps.paymentRuns.lockById(actor.accountId, held.id))!;
      const counts = (await deps.paymentRuns.counts(actor.accountId, [run.id])).get(run.id)!;
      if (!run.close(counts.submitted, deps.clock.now()).ok) continue;
      await deps.paymentRuns.release(actor.accountId, run.id);
      const [view] = await this.present(actor, [run]);
      await this.record(actor, 'payment_run.closed', view!, unique([...(await deps.paymentRuns.contractSites(actor.accountId, run.id)).values()]));
    }
  }

  private async checkedSites(actor: Actor, command: CreatePaymentRunCommand): Promise<string[] | null> {
    if (!command.siteIds) return null;
    const found = new Set((await this.deps.sites.findByIds(actor.accountId, command.siteIds)).map((s) => s.id));
    assertReferences(command.siteIds.map((id, index) => ({ path: `siteIds[${index}]`, resource: 'site', id, exists: found.has(id) })));
    return unique(command.siteIds);
  }

  private async plan(actor: Actor, run: PaymentRun, rows: readonly CollectableRow[]) {
    const methods = await this.deps.paymentMethods.readByCustomerIds(actor.accountId, unique(rows.map((r) => r.customerId)));
    const defaults = new Map(methods.filter((m) => m.isDefault).map((m) => [m.customerId, m.id]));
    const uses = run.type === 'direct_debit' ? await this.deps.paymentRuns.mandateUses(actor.accountId, methods.map((m) => m.id)) : new Map();
    return planRun({
      type: run.type,
      collectionDate: run.collectionDate,
      collectables: rows,
      methods: new Map(methods.map((m) => [m.id, m])),
      defaultMethodOf: (customerId) => defaults.get(customerId) ?? null,
      uses: (key) => uses.get(key) ?? [],
    });
  }

  /**
   * Marks the run's pending payments `submitted`, creates a submitted payment for each invoice's
   * open amount, and writes the items with what the file says about each.
   */
  private async submit(actor: Actor, run: PaymentRun, planned: readonly PlannedItem<CollectableRow>[], siteOf: (contractId: string) => string): Promise<void> {
    const { deps } = this;
    const now = run.createdAt;
    // The language of remittance texts of payments that name no invoice (prepayments).
    const { locale } = await deps.templates.defaultOf(actor.accountId, 'invoice');
    const existingIds = planned.flatMap((p) => (p.collectable.paymentId ? [p.collectable.paymentId] : []));
    const existing = await deps.payments.lockByIds(actor.accountId, existingIds);
    // The file carries the amounts as planned: a payment changed since (a refund cut back) must not go out at its old amount.
    const plannedAmounts = new Map(planned.flatMap((p) => (p.collectable.paymentId ? [[p.collectable.paymentId, p.collectable.amount] as const] : [])));
    const changed = existing.filter((p) => p.amount !== plannedAmounts.get(p.id) || !submitPayment(p, now));
    if (changed.length > 0 || existing.length !== existingIds.length) {
      throw new ConflictError('payments_changed', `Payments changed while the run was being created (${changed.map((p) => p.id).join(', ')}); try again.`);
    }
    const created = planned
      .filter((p) => !p.collectable.paymentId)
      .map(({ collectable, method }) => {
        const payment = pendingPayment(
          {
            id: randomUUID(),
            accountId: actor.accountId,
            contractId: collectable.contractId,
            amount: collectable.amount,
            type: 'payment',
            dueDate: collectable.dueDate,
            paymentMethodId: method.id,
            reference: collectable.invoiceNumber,
            invoiceId: collectable.invoiceId,
          },
          now,
        );
        submitPayment(payment, now);
        return payment;
      });
    deps.payments.addAll(created);
    const createdIds = created.map((p) => p.id);
    let next = 0;
    const customers = new Map((await deps.customers.findByIds(actor.accountId, unique(planned.map((p) => p.collectable.customerId)))).map((c) => [c.id, c]));
    const items = planned.map(({ collectable, method, sequenceType }, position) => {
      const paymentId = collectable.paymentId ?? createdIds[next++]!;
      const customer = customers.get(collectable.customerId)!;
      return Object.assign(new PaymentRunItem(), {
        accountId: actor.accountId,
        paymentRunId: run.id,
        paymentId,
        open: true,
        position,
        customerId: collectable.customerId,
        contractId: collectable.contractId,
        paymentType: collectable.paymentType,
        amount: collectable.amount,
        paymentMethodId: method.id,
        sequenceType,
        mandateReference: sequenceType ? method.mandateReference : null,
        mandateSignedAt: sequenceType ? method.mandateSignedAt : null,
        name: method.accountHolder ?? customerDisplayName(customer),
        iban: method.iban!,
        bic: method.bic,
        address: customer.address,
        remittance: remittanceText(
          { paymentType: collectable.paymentType, contractNumber: collectable.contractNumber, dueDate: collectable.dueDate, documentNumber: collectable.invoiceNumber ?? collectable.reference, documentKind: collectable.invoiceKind },
          collectable.invoiceLocale ?? locale,
        ),
        endToEndId: compactId(paymentId),
        createdAt: now,
      } satisfies PaymentRunItem);
    });
    await deps.paymentRuns.insertItems(items);
    await recordPayments(deps.outbox, causedBy(actor), 'payment.created', created, siteOf);
    await recordPayments(deps.outbox, causedBy(actor), 'payment.updated', existing, siteOf);
  }

  private async present(actor: Actor, runs: readonly PaymentRun[]): Promise<PaymentRunView[]> {
    const counts = await this.deps.paymentRuns.counts(actor.accountId, runs.map((r) => r.id));
    return runs.map((run) => presentRun(run, counts.get(run.id)!));
  }

  private record(actor: Actor, type: RunEventType, view: PaymentRunView, siteIds: readonly string[]): Promise<void> {
    const event: NewEvent = { ...causedBy(actor), type, entityId: view.id, data: view, siteIds };
    return this.deps.outbox.record([event]);
  }
}

function presentRun(run: PaymentRun, counts: RunCounts): PaymentRunView {
  const { id, type, state, collectionDate, dueUntil, siteIds, skipped } = run;
  return {
    id,
    type,
    state,
    collectionDate,
    dueUntil,
    siteIds,
    messageId: compactId(id),
    counts,
    controlSum: formatCents(BigInt(run.controlSum)),
    skipped,
    fileUrl: `/v1/payment-runs/${id}/file`,
    closedAt: run.closedAt?.toISOString() ?? null,
    cancelledAt: run.cancelledAt?.toISOString() ?? null,
    ...timestampsOf(run),
  };
}

function presentItem(item: RunItemRow): PaymentRunItemView {
  return {
    paymentId: item.paymentId,
    paymentType: item.paymentType,
    state: item.paymentState,
    contractId: item.contractId,
    customerId: item.customerId,
    invoiceId: item.invoiceId,
    amount: formatCents(BigInt(item.amount)),
    paymentMethodId: item.paymentMethodId,
    sequenceType: item.sequenceType,
    mandateReference: item.mandateReference,
    name: item.name,
    iban: item.iban,
    endToEndId: item.endToEndId,
    remittance: item.remittance,
  };
}
