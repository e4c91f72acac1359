import type { AccountRepository } from '../accounts/accounts.repository.js';
import type { Actor } from '../auth/actor.js';
import type { MeterBalancingSetting } from '../domain/balancing/balancing-setting.js';
import { holdBack, invoicedOverlap } from '../domain/balancing/invoiced-periods.js';
import type { DatePeriod } from '../domain/periods.js';
import { balanceSite, withoutIntervals, type Participation, type SiteBalance } from '../domain/balancing/site-balance.js';
import type { EnergySeries } from '../domain/measurements/aggregation.js';
import { dayOf } from '../domain/measurements/measurement-day.js';
import { isVirtual, type Meter } from '../domain/meters/meter.js';
import { allocationKeyAt, isBalanced, type Site } from '../domain/sites/site.js';
import { virtualValues, type CustomerMeter, type SiteMeter } from '../domain/meters/virtual-series.js';
import type { ContractMeterRepository, ContractRepository } from '../contracts/contracts.repository.js';
import { bucketsOf, QUARTER_HOUR_MS, type Bucket } from '../domain/time/buckets.js';
import { queryBuckets } from '../time-series.js';
import { addDays, calendarDateOf, localDaySplit, startOfDay } from '../domain/time/calendar-date.js';
import { whToKwh } from '../domain/measurements/energy.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { isUuid } from '../domain/ids.js';
import { MeasuredEnergy } from '../measurements/measured-energy.js';
import type { MeasurementRepository } from '../measurements/measurements.repository.js';
import type { MeterRepository } from '../meters/meters.repository.js';
import type { JobQueue } from '../queue/job-queue.js';
import type { ListResult } from '../resource.service.js';
import type { SiteRepository } from '../sites/sites.repository.js';
import type { EventOutbox } from '../events/outbox.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { parseInput } from '../validation.js';
import type { OutdatedDraftRepository } from '../billing/invoices/outdated-drafts.repository.js';
import type { BalancingSettingRepository } from './balancing-settings.repository.js';
import type { BalancingRepository, DirtyRange } from './balancing.repository.js';
import {
  aggregatedBalancesQuery,
  BALANCING_QUEUE,
  type AggregatedBalanceView,
  type BalanceSiteJob,
  type BalancingStatusView,
} from './balancing.commands.js';

const DAY_MS = 96 * QUARTER_HOUR_MS;
/** Quarter-hour sites are balanced a week at a time, which bounds the memory of a site-year run. */
const CHUNK_DAYS = 7;
const FLOW_ORDER = ['local', 'grid', 'feed_in'];

export interface BalancingDependencies {
  balancing: BalancingRepository;
  outdatedDrafts: OutdatedDraftRepository;
  contracts: ContractRepository;
  contractMeters: ContractMeterRepository;
  sites: SiteRepository;
  meters: MeterRepository;
  settings: BalancingSettingRepository;
  measurements: MeasurementRepository;
  accounts: AccountRepository;
  queue: JobQueue;
  uow: UnitOfWork;
  outbox: EventOutbox;
}

function toSiteMeter(meter: Meter): SiteMeter {
  return { id: meter.id, direction: meter.direction, startDate: meter.startDate.getTime(), formula: meter.formula };
}

function monthsSince1970(instant: number, timeZone: string): number {
  const [year, month] = calendarDateOf(new Date(instant), timeZone).split('-').map(Number) as [number, number];
  return (year - 1970) * 12 + month - 1;
}

/** The UTC days (quarter-hour sites) or account-timezone months (monthly sites) a change touches. */
export function chunksOf(site: Pick<Site, 'balanceResolution'>, ranges: readonly DirtyRange[], timeZone: string): Bucket[][] {
  if (site.balanceResolution === 'P1M') {
    const months = new Map<number, Bucket>();
    for (const range of ranges) {
      const first = startOfDay(`${calendarDateOf(new Date(range.from - 48 * 3600_000), timeZone).slice(0, 8)}01`, timeZone).getTime();
      for (const bucket of bucketsOf(first, range.to + 48 * 3600_000 + 1, 'P1M', timeZone).slice(0, 60)) months.set(bucket.start, bucket);
    }
    return [...months.values()].sort((a, b) => a.start - b.start).map((month) => [month]);
  }
  const days = new Set<number>();
  for (const range of ranges) {
    // A reading at a day's first instant also closes the previous day's last interval.
    for (let day = Date.parse(dayOf(range.from - QUARTER_HOUR_MS)); day <= range.to; day += DAY_MS) days.add(day);
  }
  // A chunk is a run of consecutive days: energy from readings is the difference of neighbouring
  // readings, so a chunk spanning a gap (a correction a year back and today's data in one job)
  // would leave the days after the gap incomplete.
  const runs: number[][] = [];
  for (const day of [...days].sort((a, b) => a - b)) {
    const run = runs.at(-1);
    if (run && run.length < CHUNK_DAYS && run.at(-1)! + DAY_MS === day) run.push(day);
    else runs.push([day]);
  }
  return runs.map((run) => run.flatMap((day) => bucketsOf(day, day + DAY_MS, 'PT15M', 'UTC')));
}

/**
 * Balancing of sites and the computed series of their virtual meters: scheduling
 * from ingest, the worker's run over the changed ranges, and the reads.
 */
export class BalancingService {
  constructor(private readonly deps: BalancingDependencies) {}

  /**
   * In the ingest transaction: remember what changed on balanced sites (and sites with virtual
   * meters), and mark the drafts the changed meters' data went into outdated.
   */
  markChanged(accountId: string, changes: readonly { meterId: string; from: number; to: number }[]): Promise<string[]> {
    return this.deps.balancing.markDirty(accountId, changes);
  }

  /**
   * In the transaction of a change of a site's key or settings that alters the balancing of
   * `periods` (dates of the account timezone): refused while an invoice covers any of them, since
   * its billed energy would change under it; else the periods wait for the worker.
   */
  async rebalance(accountId: string, siteId: string, periods: readonly DatePeriod[]): Promise<void> {
    if (periods.length === 0) return;
    const { balancing, accounts } = this.deps;
    const from = periods.map((period) => period.startDate).sort()[0]!;
    const invoiced = invoicedOverlap(await balancing.invoicedPeriods(accountId, siteId, from), periods);
    if (invoiced) {
      throw new ConflictError(
        'period_invoiced',
        `Invoice ${invoiced.number} (${invoiced.invoiceId}) covers ${invoiced.startDate} to ${invoiced.endDate}, which this change would re-balance; cancel it first.`,
      );
    }
    const { timezone } = (await accounts.findAccount(accountId))!;
    const startOf = (date: string) => startOfDay(date, timezone).getTime();
    // Dirty ranges end at their last quarter hour (inclusive).
    await balancing.markSiteDirty(accountId, siteId, periods.map((period) => ({ from: startOf(period.startDate), to: period.endDate ? startOf(period.endDate) - QUARTER_HOUR_MS : null })));
  }

  /** After commit: wake the worker for these sites (coalesced per site by the queue). */
  async schedule(accountId: string, siteIds: readonly string[]): Promise<void> {
    for (const siteId of siteIds) await this.deps.queue.enqueue(BALANCING_QUEUE, { accountId, siteId } satisfies BalanceSiteJob, siteId);
  }

  /** Re-enqueues every site with pending ranges (after a crash between commit and enqueue), with the held ones whose invoice was cancelled. */
  async scheduleDirtySites(): Promise<void> {
    await this.deps.balancing.releaseHeld();
    for (const { accountId, siteId } of await this.deps.balancing.dirtySites()) await this.schedule(accountId, [siteId]);
  }

  /**
   * The worker's job: balance every pending range of one site, in one transaction. Changes inside
   * an invoiced period are held back and its results kept: the billed energy stays as billed. The
   * drafts over what is balanced again are marked outdated (issuing drafts them again).
   */
  async balanceSite(job: BalanceSiteJob): Promise<void> {
    const { balancing, sites, meters, settings, accounts, uow } = this.deps;
    await uow.transactional(async () => {
      await balancing.lockSite(job.accountId, job.siteId);
      const taken = await balancing.takeDirty(job.accountId, job.siteId);
      const site = await sites.findById(job.accountId, job.siteId);
      if (taken.length === 0 || !site) return;
      const { timezone } = (await accounts.findAccount(job.accountId))!;
      const invoiced = isBalanced(site.type) ? await this.invoicedInstants(job.accountId, site.id, taken, timezone) : [];
      const { balance: ranges, held } = holdBack(taken, invoiced);
      await balancing.hold(job.accountId, site.id, held);
      if (ranges.length === 0) return;
      const siteMeters = await meters.findBySiteIds(job.accountId, [site.id]);
      const participations = this.participations(siteMeters, (await settings.findBySiteIds(job.accountId, [site.id])), timezone);
      const grid = siteMeters.find((m) => m.grid)?.id ?? null;
      const keyAt = allocationKeyAt(site.allocationKeys, (date) => startOfDay(date, timezone).getTime());
      const rotation = site.balanceResolution === 'P1M' ? (b: Bucket) => monthsSince1970(b.start, timezone) : (b: Bucket) => Math.floor(b.start / QUARTER_HOUR_MS);
      const virtual = siteMeters.some(isVirtual) && site.balanceResolution === 'PT15M';
      const customerMeters = virtual ? await this.customerMeters(job.accountId, site.id, timezone) : [];
      // Virtual meters need every physical meter of the site; balancing only the participants.
      const involved = siteMeters.filter((m) => !isVirtual(m) && (virtual || participations.some((p) => p.meterId === m.id)));
      const chunks = chunksOf(site, ranges, timezone);
      // Drafts over these spans were drafted from the results (or virtual values) replaced here.
      await this.deps.outdatedDrafts.markOfSite(job.accountId, site.id, chunks.map((buckets) => ({ start: buckets[0]!.start, end: buckets.at(-1)!.end })), timezone);
      const splits = new Map<string, number>();
      const splitOf = (day: string) => splits.get(day) ?? splits.set(day, localDaySplit(day, timezone)).get(day)!;
      // A pipeline on the one connection: while the database loads the next chunk and writes the
      // previous results, this process computes the current chunk and builds its rows. Statements
      // run in the order they are sent, and the next chunk's load waits for the writes sent
      // before it, so at most two chunks' writes are in flight.
      let loading = this.energy(job.accountId, involved, chunks[0]!);
      let writing: Promise<unknown> = Promise.resolve();
      try {
        for (const [index, buckets] of chunks.entries()) {
          const energy = await loading;
          if (index + 1 < chunks.length) {
            loading = this.energy(job.accountId, involved, chunks[index + 1]!);
            // Awaited in the next round: a failure meanwhile must not be an unhandled rejection.
            loading.catch(() => undefined);
          }
          const computed = virtual ? virtualValues(buckets, siteMeters.map(toSiteMeter), energy, participations, customerMeters) : [];
          const computedBalance = isBalanced(site.type) ? balanceSite({ buckets, rotation, keyAt, participations, energy, gridMeterId: grid }) : null;
          const result = computedBalance && (await this.keepInvoiced(job.accountId, site.id, buckets, invoiced, computedBalance));
          const days = [...new Set(buckets.map((b) => dayOf(b.start)))];
          writing = Promise.all([
            writing,
            computed.length > 0 ? this.deps.measurements.save(job.accountId, computed.map((v) => ({ ...v, index: 0 })), []) : undefined,
            result ? balancing.replaceDays(job.accountId, site.id, days, result.flows, result.states, splitOf, result.balance) : undefined,
          ]);
          // Awaited with the next chunk's write or at the end: a failure meanwhile must not be an unhandled rejection.
          writing.catch(() => undefined);
        }
      } finally {
        // A failed write fails the statements after it (the transaction is aborted): its own error is the one to report.
        await writing;
      }
      const range = { startDateTime: new Date(Math.min(...ranges.map((r) => r.from))).toISOString(), endDateTime: new Date(Math.max(...ranges.map((r) => r.to)) + QUARTER_HOUR_MS).toISOString() };
      await this.deps.outbox.record([{ accountId: job.accountId, userId: null, type: 'balancing.completed', entityId: site.id, data: { siteId: site.id, ...range }, siteIds: [site.id] }]);
    });
  }

  async aggregatedBalances(actor: Actor, query: unknown): Promise<ListResult<AggregatedBalanceView>> {
    const { limit, offset, interval, startDateTime, endDateTime, ...filter } = parseInput(aggregatedBalancesQuery, query, { unknownCode: 'unknown_parameter' });
    const site = await this.siteOf(actor, filter);
    const { timezone } = (await this.deps.accounts.findAccount(actor.accountId))!;
    const [start, end] = [Date.parse(startDateTime), Date.parse(endDateTime)];
    if (site.balanceResolution === 'P1M' && !['P1M', 'P1Y'].includes(interval)) {
      throw new ValidationError([{ path: 'interval', code: 'interval_too_fine', message: 'This site is balanced per month; use P1M or P1Y.' }]);
    }
    const buckets = queryBuckets(start, end, interval, timezone);
    const flows = await this.deps.balancing.flows(actor.accountId, { ...filter, siteId: site.id }, start, end);
    const sums = new Map<string, AggregatedBalanceView & { wh: number }>();
    let bucket = 0;
    for (const flow of flows.sort((a, b) => a.at - b.at)) {
      while (flow.at >= buckets[bucket]!.end) bucket++;
      const key = `${buckets[bucket]!.start}|${flow.debitorId}|${flow.creditorId}|${flow.kind}`;
      const sum = sums.get(key);
      if (sum) sum.wh += flow.wh;
      else {
        sums.set(key, {
          debitorMeterId: flow.debitorId,
          creditorMeterId: flow.creditorId,
          kind: flow.kind,
          startDateTime: new Date(buckets[bucket]!.start).toISOString(),
          endDateTime: new Date(buckets[bucket]!.end).toISOString(),
          value: 0,
          wh: flow.wh,
        });
      }
    }
    const rows = [...sums.values()]
      .map(({ wh, ...row }) => ({ ...row, value: whToKwh(wh) }))
      .sort(
        (a, b) =>
          a.startDateTime.localeCompare(b.startDateTime) ||
          (a.debitorMeterId ?? '').localeCompare(b.debitorMeterId ?? '') ||
          (a.creditorMeterId ?? '').localeCompare(b.creditorMeterId ?? '') ||
          FLOW_ORDER.indexOf(a.kind) - FLOW_ORDER.indexOf(b.kind),
      );
    return { data: rows.slice(offset, offset + limit), total: rows.length };
  }

  async status(actor: Actor, siteId: string): Promise<BalancingStatusView> {
    const site = isUuid(siteId) ? await this.deps.sites.findById(actor.accountId, siteId) : null;
    if (!site) throw new NotFoundError('site', siteId);
    const row = await this.deps.balancing.status(actor.accountId, site.id);
    const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());
    return {
      siteId: site.id,
      lastBalancedInterval: iso(row.lastBalancedAt),
      incompleteIntervals: row.incompleteIntervals,
      firstIncompleteInterval: iso(row.firstIncompleteAt),
      pendingRanges: row.dirtyRanges,
      heldBack: row.held.map((h) => ({ from: new Date(h.from).toISOString(), to: new Date(h.to).toISOString(), invoiceId: h.invoiceId })),
      jobs: await this.deps.queue.jobStates(BALANCING_QUEUE, site.id),
    };
  }

  /** The site's invoiced periods as instants, from the day before the earliest range (a reading at midnight closes the interval before). */
  private async invoicedInstants(accountId: string, siteId: string, ranges: readonly DirtyRange[], timezone: string) {
    const from = addDays(calendarDateOf(new Date(Math.min(...ranges.map((r) => r.from))), timezone), -1);
    const startOf = (date: string) => startOfDay(date, timezone).getTime();
    return (await this.deps.balancing.invoicedPeriods(accountId, siteId, from)).map((p) => ({ from: startOf(p.startDate), to: startOf(p.endDate), invoiceId: p.invoiceId }));
  }

  /** The stored results of the buckets that touch an invoiced period replace the computed ones: their flows one by one, the rest as series. */
  private async keepInvoiced(accountId: string, siteId: string, buckets: readonly Bucket[], invoiced: readonly { from: number; to: number }[], balance: SiteBalance) {
    const kept = new Set(buckets.filter((b) => invoiced.some((p) => p.from < b.end && b.start < p.to)).map((b) => b.start));
    if (kept.size === 0) return { balance, flows: [], states: balance.states };
    const [from, to] = [Math.min(...kept), buckets.at(-1)!.end];
    const [flows, states] = [await this.deps.balancing.flows(accountId, { siteId }, from, to), await this.deps.balancing.storedStates(accountId, siteId, from, to)];
    const computed = withoutIntervals(balance, kept);
    return { balance: computed, flows: flows.filter((f) => kept.has(f.at)), states: [...computed.states, ...states.filter((s) => kept.has(s.at))] };
  }

  /** Consumer meters on contract meters of the site's contracts, with their customers, as instants. */
  private async customerMeters(accountId: string, siteId: string, timezone: string): Promise<CustomerMeter[]> {
    const contracts = await this.deps.contracts.findBySiteIds(accountId, [siteId]);
    const customerOf = new Map(contracts.map((c) => [c.id, c.customerId]));
    const assignments = await this.deps.contractMeters.findByContractIds(accountId, [...customerOf.keys()]);
    return assignments.map((a) => ({
      customerId: customerOf.get(a.contractId)!,
      meterId: a.meterId,
      from: startOfDay(a.startDate, timezone).getTime(),
      to: a.endDate ? startOfDay(a.endDate, timezone).getTime() : null,
    }));
  }

  /** Each meter's energy per bucket of a chunk: an interval meter's stored quarter hours as they are read. */
  private async energy(accountId: string, meters: readonly Meter[], buckets: readonly Bucket[]): Promise<Map<string, EnergySeries>> {
    const [start, end] = [buckets[0]!.start, buckets.at(-1)!.end];
    const measured = await MeasuredEnergy.read(this.deps.measurements, accountId, meters.map((meter) => ({ meter, start, end })));
    return new Map(meters.map((m) => [m.id, measured.series(m, buckets)]));
  }

  /** Sorted by meter id: the engine sorts by id per interval, which is linear on sorted input. */
  private participations(meters: readonly Meter[], settings: readonly MeterBalancingSetting[], timezone: string): Participation[] {
    const byId = new Map(meters.map((m) => [m.id, m]));
    const sorted = [...settings].sort((a, b) => (a.meterId < b.meterId ? -1 : a.meterId > b.meterId ? 1 : 0));
    return sorted.flatMap((setting) => {
      const meter = byId.get(setting.meterId);
      if (!meter || isVirtual(meter) || setting.balancing !== 'participant') return [];
      return [
        {
          meterId: meter.id,
          direction: meter.direction,
          priority: setting.priority,
          shareMicros: setting.shareMicros,
          from: startOfDay(setting.startDate, timezone).getTime(),
          to: setting.endDate ? startOfDay(setting.endDate, timezone).getTime() : null,
        },
      ];
    });
  }

  private async siteOf(actor: Actor, filter: { siteId?: string; debitorMeterId?: string; creditorMeterId?: string }): Promise<Site> {
    const meterId = filter.debitorMeterId ?? filter.creditorMeterId;
    const siteId = filter.siteId ?? (meterId ? (await this.deps.meters.findByIds(actor.accountId, [meterId]))[0]?.siteId : undefined);
    const site = siteId ? await this.deps.sites.findById(actor.accountId, siteId) : null;
    if (!site) throw new NotFoundError(filter.siteId ? 'site' : 'meter', (filter.siteId ?? meterId)!);
    return site;
  }
}
