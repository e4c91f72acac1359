import { randomUUID } from 'node:crypto';
import type { ActivityLog } from '../../activity-log.js';
import type { AccountRepository } from '../../accounts/accounts.repository.js';
import type { Actor } from '../../auth/actor.js';
import type { Clock } from '../../clock.js';
import { BillRun, overlappingRun, type BillRunPhase } from '../../domain/billing/bill-run.js';
import { invoiceOfDraft } from '../../domain/billing/invoice.js';
import type { BalancingRepository } from '../../balancing/balancing.repository.js';
import type { ContractRepository } from '../../contracts/contracts.repository.js';
import type { CustomerRepository } from '../../customers/customers.repository.js';
import type { MeasurementRepository } from '../../measurements/measurements.repository.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import type { EventOutbox } from '../../events/outbox.js';
import type { JobQueue } from '../../queue/job-queue.js';
import { assertReferences } from '../../references.js';
import { listPage, loadOwned, timestampsOf, type ListResult, type ResourceService } from '../../resource.service.js';
import type { SiteRepository } from '../../sites/sites.repository.js';
import type { UnitOfWork } from '../../unit-of-work.js';
import { parseInput } from '../../validation.js';
import { BILL_RUN_QUEUE, createBillRunCommand, listBillRunsQuery, type BillRunJob, type BillRunView } from './bill-runs.commands.js';
import { DOCUMENTS_PER_ROUND, type InvoiceDocuments } from '../invoices/invoice-documents.js';
import type { InvoiceIssuer } from '../invoices/invoice-issuer.js';
import type { InvoiceDraftsService } from '../invoices/invoice-drafts.service.js';
import type { InvoiceRepository } from '../invoices/invoices.repository.js';
import type { OutdatedDraftRepository } from '../invoices/outdated-drafts.repository.js';
import type { BillRunCounts, BillRunRepository } from './bill-runs.repository.js';
import { issuingBlockers, redraftOutdated, withoutBlocked } from './bill-run-drafts.js';
import type { TemplateRepository } from '../catalogue/templates.service.js';

export interface BillRunSettings {
  /** Contracts drafted, or drafts issued, per transaction (and per progress event). */
  batchSize: number;
  /** How long a worker's claim on a run lasts without renewal; a crashed worker's run resumes after it. */
  leaseSeconds: number;
}

export interface BillRunsDependencies {
  accounts: AccountRepository;
  customers: CustomerRepository;
  billRuns: BillRunRepository;
  balancing: BalancingRepository;
  measurements: MeasurementRepository;
  contracts: ContractRepository;
  invoices: InvoiceRepository;
  outdatedDrafts: OutdatedDraftRepository;
  sites: SiteRepository;
  templates: TemplateRepository;
  drafts: InvoiceDraftsService;
  issuer: InvoiceIssuer;
  documents: InvoiceDocuments;
  queue: JobQueue;
  uow: UnitOfWork;
  clock: Clock;
  outbox: EventOutbox;
  settings: BillRunSettings;
  log: ActivityLog;
}

type BillRunEventType = 'bill_run.create_progress' | 'bill_run.create_success' | 'bill_run.create_error' | 'bill_run.complete_progress' | 'bill_run.complete_success' | 'bill_run.complete_error' | 'bill_run.deleted';

/** Progress events at most every second or every 500 contracts; the first batch always reports. */
class ProgressThrottle {
  private last = Number.NEGATIVE_INFINITY;
  private since = 0;

  constructor(private readonly clock: Clock) {}

  due(handled: number): boolean {
    this.since += handled;
    const now = this.clock.now().getTime();
    if (now - this.last < 1000 && this.since < 500) return false;
    this.last = now;
    this.since = 0;
    return true;
  }
}

/** What one batch transaction of a phase found: more to do, nothing left, or the run taken over. */
type Step = 'more' | 'done' | 'lost';

const EMPTY_COUNTS: Omit<BillRunCounts, 'total'> = { contracts: 0, invoices: 0, issued: 0, errors: 0 };

function withTotal(counts: Omit<BillRunCounts, 'total'>, billable: number | undefined): BillRunCounts {
  return { total: billable === undefined ? counts.contracts : Math.max(billable, counts.contracts), ...counts };
}

/**
 * Bill runs: created over the API, worked by the worker in two phases — drafts for
 * every billable contract, then issuing them — each in batches of one transaction, so a crash
 * loses at most the batch in flight and a restarted worker resumes where the committed ones end.
 */
export class BillRunsService implements ResourceService<BillRunView> {
  constructor(private readonly deps: BillRunsDependencies) {}

  async create(actor: Actor, input: unknown): Promise<BillRunView> {
    const command = parseInput(createBillRunCommand, input);
    const now = this.deps.clock.now();
    const run = await this.deps.uow.transactional(async () => {
      if (command.siteIds) {
        const found = new Set((await this.deps.sites.findByIds(actor.accountId, command.siteIds)).map((s) => s.id));
        assertReferences(command.siteIds.map((id, index) => ({ path: `siteIds[${index}]`, resource: 'site', id, exists: found.has(id) })));
      }
      const siteIds = command.siteIds ? [...new Set(command.siteIds)] : null;
      // Two runs over one contract and period would split its drafts between them. Under the lock,
      // the check sees every run committed before this one, so a concurrent twin is refused too.
      await this.deps.billRuns.lockCreation(actor.accountId);
      const overlap = overlappingRun({ ...command, siteIds }, await this.deps.billRuns.notCompleted(actor.accountId));
      if (overlap) {
        const sites = overlap.siteIds ? `sites ${overlap.siteIds.join(', ')}` : 'every site';
        throw new ConflictError('bill_run_overlaps', `Bill run ${overlap.id} covers ${overlap.periodStart} to ${overlap.periodEnd} on ${sites} and is ${overlap.state}; complete or delete it first.`);
      }
      const created = BillRun.open({ id: randomUUID(), accountId: actor.accountId, periodStart: command.periodStart, periodEnd: command.periodEnd, siteIds }, now);
      this.deps.billRuns.add(created);
      return created;
    });
    await this.enqueue(run);
    return (await this.present([run]))[0]!;
  }

  async get(actor: Actor, id: string): Promise<BillRunView> {
    return (await this.present([await loadOwned(this.deps.billRuns, actor, 'bill run', id)]))[0]!;
  }

  list(actor: Actor, query: unknown): Promise<ListResult<BillRunView>> {
    return listPage(this.deps.billRuns, actor, listBillRunsQuery, query, (runs) => this.present(runs));
  }

  /** Phase 2 on a created run (202); also retries a completion that failed. */
  async complete(actor: Actor, id: string): Promise<BillRunView> {
    const now = this.deps.clock.now();
    const run = await this.deps.uow.transactional(async () => {
      const found = await this.lockOwned(actor, id);
      if (!found.startCompletion(now)) {
        throw new ConflictError('bill_run_not_created', `The bill run is ${found.state}${found.state === 'failed' ? ' in its create phase: delete it and create it again' : ''}; only a created run (or a failed completion) is completed.`);
      }
      return found;
    });
    await this.enqueue(run);
    return (await this.present([run]))[0]!;
  }

  /** Before completion: the run and its drafts go (`bill_run.deleted`). */
  async delete(actor: Actor, id: string): Promise<BillRunView> {
    return this.deps.uow.transactional(async () => {
      // Waits for a batch in flight, so that no draft of it outlives the run.
      const run = await this.lockOwned(actor, id);
      const [view] = await this.present([run]);
      if (view!.counts.issued > 0) {
        throw new ConflictError('bill_run_has_issued_invoices', `${view!.counts.issued} invoices of the run are issued; cancel them instead.`);
      }
      await this.deps.invoices.deleteDrafts(run.accountId, run.id);
      this.deps.billRuns.remove(run);
      await this.event(run, 'bill_run.deleted', view!, actor.userId);
      return view!;
    });
  }

  /** The worker's job: the phase the run is in, batch by batch, under a lease on the run. */
  async work(job: BillRunJob): Promise<void> {
    const token = randomUUID();
    const run = await this.claim(job, token);
    if (!run) return;
    const phase = run.phase;
    try {
      if (phase === 'create') await this.createDrafts(run, token);
      else await this.issueDrafts(run, token);
    } catch (error) {
      const failure = error instanceof Error ? error.message : String(error);
      await this.deps.uow.transactional(async () => {
        const current = await this.deps.billRuns.lockById(run.accountId, run.id);
        if (!current?.failPhase(phase, failure, this.deps.clock.now())) return;
        await this.event(current, phase === 'create' ? 'bill_run.create_error' : 'bill_run.complete_error');
      });
      throw error;
    }
  }

  /** Re-enqueues unfinished runs whose worker is gone (the sweep after a crash). */
  async scheduleUnfinished(): Promise<void> {
    for (const run of await this.deps.billRuns.unfinished()) await this.enqueue(run);
  }

  /** The caller's run, its row locked until the transaction ends (a worker's batch in flight first commits). */
  private async lockOwned(actor: Actor, id: string): Promise<BillRun> {
    await loadOwned(this.deps.billRuns, actor, 'bill run', id);
    const run = await this.deps.billRuns.lockById(actor.accountId, id);
    if (!run) throw new NotFoundError('bill run', id);
    return run;
  }

  private enqueue(run: Pick<BillRun, 'id' | 'accountId'>): Promise<void> {
    return this.deps.queue.enqueue(BILL_RUN_QUEUE, { accountId: run.accountId, billRunId: run.id } satisfies BillRunJob, run.id);
  }

  /** Takes (or renews) the lease on a run in `creating` / `completing`; null when it is not ours to work. */
  private claim(job: BillRunJob, token: string): Promise<BillRun | null> {
    return this.deps.uow.transactional(async () => {
      const run = await this.deps.billRuns.lockById(job.accountId, job.billRunId);
      return run?.claim(token, this.deps.clock.now(), this.deps.settings.leaseSeconds) ? run : null;
    });
  }

  /** Phase 1: drafts batch by batch until every contract of the run has an invoice or an error. */
  private async createDrafts(run: BillRun, token: string): Promise<void> {
    const { deps } = this;
    const template = (await deps.templates.defaultOf(run.accountId, 'invoice')).id;
    const progress = new ProgressThrottle(deps.clock);
    for (;;) {
      const step = await this.batch(async (): Promise<Step> => {
        if (!(await this.claim({ accountId: run.accountId, billRunId: run.id }, token))) return 'lost';
        const contracts = await deps.billRuns.unhandledContracts(run, deps.settings.batchSize);
        if (contracts.length === 0) return 'done';
        const now = deps.clock.now();
        // Until this batch commits, the account's master data does not change, its sites are not
        // balanced again (nor, while drafting reads them, meters of unbalanced sites written); a
        // change after it marks the drafts it makes outdated (issuing drafts them again).
        await deps.outdatedDrafts.holdOffChanges(run.accountId);
        await deps.balancing.holdSites(run.accountId, contracts.map((c) => c.siteId));
        const blocked = await issuingBlockers(deps, run.accountId, contracts);
        const drafts = await deps.drafts.draftAll(run.accountId, contracts.filter((c) => !blocked.has(c.id)), run.periodStart, run.periodEnd);
        const owner = { accountId: run.accountId, billRunId: run.id, templateId: template, now, newId: randomUUID };
        const billed = drafts.flatMap((d) => (d.draft ? [invoiceOfDraft(d.draft, { ...owner, contractId: d.contract.id, customerId: d.contract.customerId, prepaymentIds: d.prepaymentIds })] : []));
        // A contract another invoice (not cancelled) already bills for a day of the period gets an error instead.
        const invoiced = await deps.invoices.contractsInvoiced(run.accountId, billed.map((b) => b.invoice.contractId), run.periodStart, run.periodEnd);
        await deps.invoices.insertDrafts(billed.filter((b) => !invoiced.has(b.invoice.contractId)));
        const overlapping = billed.filter((b) => invoiced.has(b.invoice.contractId)).map((b) => b.invoice.contractId);
        await deps.billRuns.addErrors([
          ...[...blocked].map(([contractId, blocker]) => ({ billRunId: run.id, accountId: run.accountId, contractId, ...blocker, createdAt: now })),
          ...drafts.flatMap((d) => (d.error ? [{ billRunId: run.id, accountId: run.accountId, contractId: d.contract.id, ...d.error, createdAt: now }] : [])),
          ...overlapping.map((contractId) => ({
            billRunId: run.id,
            accountId: run.accountId,
            contractId,
            code: 'period_overlaps',
            message: `Another invoice that is not cancelled covers part of ${run.periodStart} to ${run.periodEnd} for this contract.`,
            createdAt: now,
          })),
        ]);
        if (progress.due(contracts.length)) await this.event(run, 'bill_run.create_progress');
        return 'more';
      });
      if (step === 'lost') return;
      if (step === 'done') break;
    }
    await this.finish(run, 'create', 'bill_run.create_success');
  }

  /**
   * Gets the PDF renderer ready (a render pool starts its threads, which load the renderer and its
   * fonts), so that a worker's first bill run does not pay for it while issuing; resolves once it is.
   */
  prepare(): Promise<void> {
    return this.deps.documents.prepare();
  }

  /**
   * Phase 2: numbers, locked prepayments and `issued` per batch (outdated drafts drafted again
   * first, `redraftOutdated`); each batch's PDFs after its commit.
   * A batch's PDFs render while the next batch is issued, and a batch is issued only once the PDFs
   * of the batch before the previous one are stored: at most two batches' PDFs are in flight, and
   * the render threads need not wait for an issuing transaction. A crash leaves issued invoices
   * without PDFs, which the first step of a resumed phase renders; a batch whose PDFs fail fails the
   * phase when it is awaited.
   */
  private async issueDrafts(run: BillRun, token: string): Promise<void> {
    const { deps } = this;
    // Not awaited: the first documents wait in the threads' queues instead.
    void deps.documents.prepare();
    const render = (filter: { runId?: string; ids?: readonly string[] }) => deps.uow.apart(() => deps.documents.renderMissing(run.accountId, filter, deps.settings.batchSize));
    while ((await render({ runId: run.id })) > 0);
    const progress = new ProgressThrottle(deps.clock);
    const rendering: Promise<unknown>[] = [];
    // The first batch is one round of documents: the render threads start on its PDFs while the
    // next batch is issued, instead of waiting idle while a whole batch is.
    let size = Math.min(DOCUMENTS_PER_ROUND, deps.settings.batchSize);
    try {
      for (;;) {
        const issued = await this.batch(async (): Promise<string[] | 'done' | 'lost'> => {
          if (!(await this.claim({ accountId: run.accountId, billRunId: run.id }, token))) return 'lost';
          // What drafting them again would read first, then the drafts: the order in which changes
          // of master data, balancing (a site) and ingest (its meters) lock before they mark drafts outdated.
          await deps.outdatedDrafts.holdOffChanges(run.accountId);
          const inputs = await deps.invoices.draftInputs(run.accountId, run.id, size);
          await deps.balancing.holdSites(run.accountId, inputs.siteIds);
          await deps.measurements.holdMeters(run.accountId, inputs.meterIds);
          const locked = await deps.invoices.lockDrafts(run.accountId, run.id, size);
          if (locked.length === 0) return 'done';
          const now = deps.clock.now();
          const drafts = await redraftOutdated(deps, run, await withoutBlocked(deps, run, locked, now), now);
          await deps.issuer.issue(run.accountId, 'invoice', drafts, now);
          if (progress.due(locked.length)) await this.event(run, 'bill_run.complete_progress');
          return drafts.map((d) => d.id);
        });
        if (issued === 'lost') return;
        if (issued === 'done') break;
        size = deps.settings.batchSize;
        if (issued.length === 0) continue;
        const pdfs = render({ ids: issued });
        // Awaited below or in the next round: a failure meanwhile must not be an unhandled rejection.
        pdfs.catch(() => undefined);
        rendering.push(pdfs);
        if (rendering.length > 1) await rendering.shift();
      }
      await Promise.all(rendering);
    } finally {
      await Promise.allSettled(rendering);
    }
    await this.finish(run, 'complete', 'bill_run.complete_success');
  }

  /** One batch of a phase: its own transaction, in a unit of work that forgets the batch when it ends. */
  private batch<T>(work: () => Promise<T>): Promise<T> {
    return this.deps.uow.apart(() => this.deps.uow.transactional(work));
  }

  private async finish(run: BillRun, phase: BillRunPhase, type: BillRunEventType): Promise<void> {
    await this.deps.uow.transactional(async () => {
      const current = await this.deps.billRuns.lockById(run.accountId, run.id);
      if (!current?.finishPhase(phase, this.deps.clock.now())) return;
      await this.event(current, type);
    });
  }

  private async event(run: BillRun, type: BillRunEventType, view?: BillRunView, userId: string | null = null): Promise<void> {
    const data = view ?? (await this.present([run]))[0]!;
    const fields = { accountId: run.accountId, billRunId: run.id, event: type, state: data.state, counts: data.counts, ...(data.failure ? { failure: data.failure } : {}) };
    if (type.endsWith('_error')) this.deps.log.error(fields, `bill run ${type.slice('bill_run.'.length).replace('_', ' ')}`);
    else this.deps.log.info(fields, `bill run ${type.slice('bill_run.'.length).replace('_', ' ')}`);
    await this.deps.outbox.record([{ accountId: run.accountId, userId, type, entityId: run.id, data, siteIds: run.siteIds ?? [] }]);
  }

  /** Views of runs of one account. */
  private async present(runs: readonly BillRun[]): Promise<BillRunView[]> {
    if (runs.length === 0) return [];
    const { accountId } = runs[0]!;
    const ids = runs.map((r) => r.id);
    const counts = await this.deps.billRuns.counts(accountId, ids);
    const errors = await this.deps.billRuns.errorsOf(accountId, ids);
    // While drafting, the contracts still to come are counted too (a progress bar's 100 %).
    const totals = new Map(await Promise.all(runs.filter((r) => r.state === 'creating').map(async (r) => [r.id, await this.deps.billRuns.countBillable(r)] as const)));
    return runs.map((run) => ({
      id: run.id,
      periodStart: run.periodStart,
      periodEnd: run.periodEnd,
      siteIds: run.siteIds,
      state: run.state,
      phase: run.phase,
      failure: run.failure,
      counts: withTotal(counts.get(run.id) ?? EMPTY_COUNTS, totals.get(run.id)),
      errors: errors.filter((e) => e.billRunId === run.id).map(({ contractId, code, message }) => ({ contractId, code, message })),
      completedAt: run.completedAt?.toISOString() ?? null,
      ...timestampsOf(run),
    }));
  }
}
