import { randomUUID } from 'node:crypto';
import type { Actor } from '../auth/actor.js';
import type { Clock } from '../clock.js';
import type { ContractRepository } from '../contracts/contracts.repository.js';
import { formatCents, parseCents } from '../domain/billing/money.js';
import { amountOn, dueDates, PrepaymentAmount, PrepaymentRequest } from '../domain/payments/prepayment.js';
import { ConflictError, ValidationError } from '../errors.js';
import { mergeUpdate } from '../patching.js';
import type { ProductRepository } from '../products/products.service.js';
import { assertReference } from '../references.js';
import { listPage, loadOwned, timestampsOf, type ListResult, type ResourceService } from '../resource.service.js';
import { causedBy, type EventOutbox } from '../events/outbox.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { recordPayments } from './payment-events.js';
import { parseInput } from '../validation.js';
import type { PaymentMethodRepository, PaymentRepository, PrepaymentAmountRepository, PrepaymentRequestRepository } from './payments.repository.js';
import {
  createPrepaymentAmountCommand,
  createPrepaymentRequestCommand,
  listPrepaymentAmountsQuery,
  listPrepaymentRequestsQuery,
  removedPrepaymentRequestFields,
  updatePrepaymentAmountCommand,
  type PrepaymentAmountView,
  type PrepaymentRequestView,
} from './prepayments.commands.js';

/** One request covers at most this many due dates (83 years of monthly prepayments). */
export const MAX_DUE_DATES_PER_REQUEST = 1000;

export interface PrepaymentsDependencies {
  prepaymentAmounts: PrepaymentAmountRepository;
  prepaymentRequests: PrepaymentRequestRepository;
  payments: PaymentRepository;
  paymentMethods: PaymentMethodRepository;
  contracts: ContractRepository;
  products: ProductRepository;
  uow: UnitOfWork;
  clock: Clock;
  outbox: EventOutbox;
}

function presentAmount(amount: PrepaymentAmount): PrepaymentAmountView {
  return { id: amount.id, contractId: amount.contractId, amount: formatCents(BigInt(amount.amount)), validFrom: amount.validFrom, ...timestampsOf(amount) };
}

function presentRequest(request: PrepaymentRequest): PrepaymentRequestView {
  const { id, contractId, startDate, endDate, paymentIds } = request;
  return { id, contractId, startDate, endDate, paymentIds, createdAt: request.createdAt.toISOString() };
}

/** What a contract prepays from which day on; one amount per contract and `validFrom`. */
export class PrepaymentAmountsService implements ResourceService<PrepaymentAmountView> {
  constructor(private readonly deps: PrepaymentsDependencies) {}

  async create(actor: Actor, input: unknown): Promise<PrepaymentAmountView> {
    const command = parseInput(createPrepaymentAmountCommand, input);
    return this.deps.uow.transactional(async () => {
      const now = this.deps.clock.now();
      const amount = Object.assign(new PrepaymentAmount(), { id: randomUUID(), accountId: actor.accountId, ...command, amount: parseCents(command.amount)!, createdAt: now, updatedAt: now });
      await this.check(actor, amount);
      this.deps.prepaymentAmounts.add(amount);
      return presentAmount(amount);
    });
  }

  async get(actor: Actor, id: string): Promise<PrepaymentAmountView> {
    return presentAmount(await loadOwned(this.deps.prepaymentAmounts, actor, 'prepayment_amount', id));
  }

  list(actor: Actor, query: unknown): Promise<ListResult<PrepaymentAmountView>> {
    return listPage(this.deps.prepaymentAmounts, actor, listPrepaymentAmountsQuery, query, (items) => items.map(presentAmount));
  }

  async update(actor: Actor, id: string, patch: unknown): Promise<PrepaymentAmountView> {
    return this.deps.uow.transactional(async () => {
      const amount = await loadOwned(this.deps.prepaymentAmounts, actor, 'prepayment_amount', id);
      const { merged } = mergeUpdate({ current: presentAmount(amount), patch, patchSchema: updatePrepaymentAmountCommand, createSchema: createPrepaymentAmountCommand });
      const next = Object.assign(new PrepaymentAmount(), amount, { ...merged, amount: parseCents(merged.amount)! });
      await this.check(actor, next);
      Object.assign(amount, { ...merged, amount: next.amount, updatedAt: this.deps.clock.now() });
      return presentAmount(amount);
    });
  }

  private async check(actor: Actor, amount: PrepaymentAmount): Promise<void> {
    assertReference(await this.deps.contracts.findById(actor.accountId, amount.contractId), { path: 'contractId', resource: 'contract', id: amount.contractId });
    const existing = await this.deps.prepaymentAmounts.ofContract(actor.accountId, amount.contractId);
    if (existing.some((other) => other.id !== amount.id && other.validFrom === amount.validFrom)) {
      throw new ConflictError('prepayment_amount_exists', `The contract has a prepayment amount from ${amount.validFrom}; change that one or pick another date.`);
    }
  }
}

/**
 * Prepayment requests: ensure one pending prepayment per due date of the product's
 * prepayment configuration, at the amount valid on that date. Safe to repeat and to run
 * concurrently: a unique constraint, not a check, keeps one payment per due date.
 */
export class PrepaymentRequestsService implements ResourceService<PrepaymentRequestView> {
  constructor(private readonly deps: PrepaymentsDependencies) {}

  async create(actor: Actor, input: unknown): Promise<PrepaymentRequestView> {
    const command = parseInput(createPrepaymentRequestCommand, input, { removed: removedPrepaymentRequestFields });
    return this.deps.uow.transactional(async () => {
      const contract = await this.deps.contracts.findById(actor.accountId, command.contractId);
      assertReference(contract, { path: 'contractId', resource: 'contract', id: command.contractId });
      const product = (await this.deps.products.findById(actor.accountId, contract.electricityProductId))!;
      const configuration = product.prepaymentConfiguration;
      if (!configuration) {
        throw new ConflictError('prepayment_not_configured', `Electricity product ${product.id} has no prepaymentConfiguration; set its cycle and dayOfMonth first.`);
      }
      const from = command.startDate > contract.startDate ? command.startDate : contract.startDate;
      const to = contract.endDate !== null && contract.endDate < command.endDate ? contract.endDate : command.endDate;
      const dates = from < to ? dueDates(configuration, contract.startDate, from, to) : [];
      if (dates.length > MAX_DUE_DATES_PER_REQUEST) {
        throw new ValidationError([{ path: 'endDate', code: 'range_too_long', message: `At most ${MAX_DUE_DATES_PER_REQUEST} due dates per request; the range holds ${dates.length}.` }]);
      }
      const amounts = await this.deps.prepaymentAmounts.ofContract(actor.accountId, contract.id);
      const missing = dates.filter((date) => amountOn(amounts, date) === null);
      if (missing.length > 0) {
        throw new ConflictError('prepayment_amount_missing', `No prepayment amount of contract ${contract.id} is valid on ${missing.join(', ')}; create one with POST /v1/prepayment-amounts.`);
      }
      const wanted = dates.map((dueDate) => ({ id: randomUUID(), dueDate, amount: BigInt(amountOn(amounts, dueDate)!.amount) })).filter((p) => p.amount > 0n);
      const paymentMethod = await this.deps.paymentMethods.defaultOf(actor.accountId, contract.customerId);
      const now = this.deps.clock.now();
      const { paymentIds, createdIds } = await this.deps.payments.ensurePrepayments({
        accountId: actor.accountId,
        contractId: contract.id,
        paymentMethodId: paymentMethod?.id ?? null,
        wanted,
        dueDates: dates,
        now,
      });
      await recordPayments(this.deps.outbox, causedBy(actor), 'payment.created', await this.deps.payments.findByIds(actor.accountId, createdIds), () => contract.siteId);
      const request = Object.assign(new PrepaymentRequest(), { id: randomUUID(), accountId: actor.accountId, ...command, paymentIds, createdAt: now });
      this.deps.prepaymentRequests.add(request);
      return presentRequest(request);
    });
  }

  async get(actor: Actor, id: string): Promise<PrepaymentRequestView> {
    return presentRequest(await loadOwned(this.deps.prepaymentRequests, actor, 'prepayment_request', id));
  }

  list(actor: Actor, query: unknown): Promise<ListResult<PrepaymentRequestView>> {
    return listPage(this.deps.prepaymentRequests, actor, listPrepaymentRequestsQuery, query, (items) => items.map(presentRequest));
  }
}
