import { defineEntity, p } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { BalancingRepository, BalancingStatusRow, DirtyRange, FlowFilter, HeldRange, StoredFlow } from '../../balancing/balancing.repository.js';
import { BalanceDay, BalancingDay, BalancingDirtyRange, NIL_UUID } from '../../domain/balancing/balance-rows.js';
import type { InvoicedPeriod } from '../../domain/balancing/invoiced-periods.js';
import type { Flow, FlowKind, IntervalState, SiteBalance } from '../../domain/balancing/site-balance.js';
import { MAX_INTERPOLATION_GAP_MS } from '../../domain/measurements/bucket-energy.js';
import { dayOf, slotOf, SLOTS_PER_DAY } from '../../domain/measurements/measurement-day.js';
import { QUARTER_HOUR_MS } from '../../domain/time/buckets.js';
import { boundQuery } from '../bound-query.js';
import { SiteEntity } from '../sites/site.entity.js';
import { accountKey, tenantForeignKey } from '../tenant-keys.js';

export const BalanceDayEntity = defineEntity({
  class: BalanceDay,
  tableName: 'balance_days',
  properties: {
    accountId: accountKey,
    siteId: p.uuid().fieldName('site_id').primary(),
    site: tenantForeignKey(() => SiteEntity, 'site_id'),
    day: p.string().columnType('date').primary(),
    kind: p.string().length(8).primary(),
    debitorId: p.uuid().primary(),
    creditorId: p.uuid().primary(),
    values: p.string().columnType('bigint[]'),
    headWh: p.bigint('string').nullable(),
    tailWh: p.bigint('string').nullable(),
  },
});

export const BalancingDayEntity = defineEntity({
  class: BalancingDay,
  tableName: 'balancing_days',
  properties: {
    accountId: accountKey,
    siteId: p.uuid().fieldName('site_id').primary(),
    site: tenantForeignKey(() => SiteEntity, 'site_id'),
    day: p.string().columnType('date').primary(),
    states: p.string().columnType('smallint[]'),
    headBalanced: p.smallint().default(0),
    tailBalanced: p.smallint().default(0),
    balancedAt: p.datetime(3),
  },
});

export const BalancingDirtyRangeEntity = defineEntity({
  class: BalancingDirtyRange,
  tableName: 'balancing_dirty_ranges',
  indexes: [{ properties: ['accountId', 'siteId'] }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    siteId: p.uuid().fieldName('site_id'),
    site: tenantForeignKey(() => SiteEntity, 'site_id'),
    fromAt: p.datetime(3),
    toAt: p.datetime(3),
    // No foreign key: the range only waits for the invoice, and one not issued or paid any more releases it.
    heldByInvoiceId: p.uuid().fieldName('held_by_invoice_id').nullable(),
  },
});

const orNull = (id: string) => (id === NIL_UUID ? null : id);
const DAY_MS = SLOTS_PER_DAY * QUARTER_HOUR_MS;

/** One row of balance_days: a flow's values in the slots of a UTC day, NaN where none. */
interface FlowRow {
  day: string;
  kind: FlowKind;
  debitor_id: string;
  creditor_id: string;
  values: Float64Array;
}

/**
 * The day rows of flows given one by one and of a balance's series, in primary-key order (the
 * key of the map): inserts then go to the right edge of the index, appended to without a search.
 */
function flowRows(flows: readonly Flow[], balance: Pick<SiteBalance, 'buckets' | 'series'> | undefined, dayName: (at: number) => string): FlowRow[] {
  const rows = new Map<string, FlowRow>();
  const rowOf = (at: number, kind: FlowKind, debitorId: string | null, creditorId: string | null) => {
    const [day, debitor_id, creditor_id] = [dayName(at), debitorId ?? NIL_UUID, creditorId ?? NIL_UUID];
    const key = `${day}|${kind}|${debitor_id}|${creditor_id}`;
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { day, kind, debitor_id, creditor_id, values: new Float64Array(SLOTS_PER_DAY).fill(NaN) }));
    return row;
  };
  for (const flow of flows) rowOf(flow.at, flow.kind, flow.debitorId, flow.creditorId).values[slotOf(flow.at)] = flow.wh;
  const starts = balance?.buckets.map((bucket) => bucket.start) ?? [];
  const [days, slots] = [starts.map((at) => Math.floor(at / DAY_MS)), starts.map(slotOf)];
  for (const { kind, debitorId, creditorId, wh } of balance?.series ?? []) {
    let row: FlowRow | undefined;
    let rowDay = NaN;
    for (let i = 0; i < wh.length; i++) {
      if (Number.isNaN(wh[i])) continue;
      if (days[i] !== rowDay) [row, rowDay] = [rowOf(starts[i]!, kind, debitorId, creditorId), days[i]!];
      row!.values[slots[i]!] = wh[i]!;
    }
  }
  return [...rows].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row);
}

/** Array literal text: PostgreSQL parses it faster than a JSON array. */
function arrayLiteral(values: Float64Array): string {
  // Joined, not appended: JSON.stringify flattens a string built by += far more slowly.
  const cells = new Array<string>(values.length);
  for (let slot = 0; slot < values.length; slot++) cells[slot] = Number.isNaN(values[slot]) ? 'NULL' : String(values[slot]);
  return `{${cells.join(',')}}`;
}

/** Wh of slots [from, to) as a decimal string, null when none has a value. */
function sumOf(values: Float64Array, from: number, to: number): string | null {
  let sum = 0;
  let any = false;
  for (let slot = from; slot < to; slot++) {
    if (!Number.isNaN(values[slot])) {
      sum += values[slot]!;
      any = true;
    }
  }
  return any ? String(sum) : null;
}

const countBalanced = (states: readonly (number | null)[], from: number, to: number) => states.slice(from, to).filter((state) => state === 1).length;

/** The advisory lock key under which a site is balanced (`lockSite`) and held off (`holdSites`). */
const siteLockKey = (accountId: string, siteId: string) => `${accountId}/${siteId}`;

export class MikroBalancingRepository implements BalancingRepository {
  constructor(private readonly em: EntityManager) {}

  async markDirty(accountId: string, changes: readonly { meterId: string; from: number; to: number }[]): Promise<string[]> {
    if (changes.length === 0) return [];
    // One statement, ingest's only one beside writing the values. The drafts: contracts first (few
    // rows, by index), then their drafts; `for key share` waits for a draft being issued and skips
    // it once it is (the state is checked again after the wait).
    const rows = await this.em.execute<{ site_id: string }[]>(
      `with c as (select * from json_to_recordset(?::json) as c(meter_id uuid, from_at bigint, to_at bigint)),
       touched as (
         select cm.contract_id, min(c.from_at) as from_at, max(c.to_at) as to_at
           from c join contract_meters cm on cm.account_id = ? and cm.meter_id = c.meter_id
          group by cm.contract_id
       ), drafts as (
         select i.account_id, i.id from touched t
           join invoices i on i.account_id = ? and i.contract_id = t.contract_id
           cross join (select timezone from accounts where account_id = ?) a
          where i.state = 'draft'
            and (i.period_start::timestamp at time zone a.timezone) <= to_timestamp((t.to_at + ?) / 1000.0)
            and (i.period_end::timestamp at time zone a.timezone) > to_timestamp((t.from_at - ?) / 1000.0)
            for key share of i
       ), outdated as (
         insert into outdated_drafts (account_id, invoice_id, created_at) select account_id, id, now() from drafts on conflict do nothing
       )
       insert into balancing_dirty_ranges (id, account_id, site_id, from_at, to_at)
       select gen_random_uuid(), m.account_id, m.site_id, to_timestamp(min(c.from_at) / 1000.0), to_timestamp(max(c.to_at) / 1000.0)
       from c
       join meters m on m.id = c.meter_id and m.account_id = ?
       join sites s on s.id = m.site_id and s.account_id = m.account_id
       where s.type like 'balanced%' or exists (select 1 from meters v where v.account_id = s.account_id and v.site_id = s.id and v.formula is not null)
       group by m.account_id, m.site_id
       returning site_id`,
      [JSON.stringify(changes.map((c) => ({ meter_id: c.meterId, from_at: c.from, to_at: c.to }))), accountId, accountId, accountId, MAX_INTERPOLATION_GAP_MS, MAX_INTERPOLATION_GAP_MS, accountId],
    );
    return rows.map((r) => r.site_id);
  }

  async markSiteDirty(accountId: string, siteId: string, ranges: readonly { from: number; to: number | null }[]): Promise<void> {
    if (ranges.length === 0) return;
    // The last balanced day's last quarter hour; least() ignores the null of an open range.
    await this.em.execute(
      `insert into balancing_dirty_ranges (id, account_id, site_id, from_at, to_at)
       select gen_random_uuid(), ?, ?, to_timestamp(r.from_at / 1000.0), least(to_timestamp(r.to_at / 1000.0), l.last_at)
       from json_to_recordset(?::json) as r(from_at bigint, to_at bigint)
       cross join (select ((max(day) + 1)::timestamp - interval '15 minutes') at time zone 'UTC' as last_at
                     from balancing_days where account_id = ? and site_id = ?) as l
       where to_timestamp(r.from_at / 1000.0) <= l.last_at`,
      [accountId, siteId, JSON.stringify(ranges.map((r) => ({ from_at: r.from, to_at: r.to }))), accountId, siteId],
    );
  }

  async invoicedPeriods(accountId: string, siteId: string, from: string): Promise<InvoicedPeriod[]> {
    const rows = await this.em.execute<{ id: string; number: string; period_start: string; period_end: string }[]>(
      `select i.id, i.number, i.period_start::text as period_start, i.period_end::text as period_end
         from invoices i join contracts c on c.account_id = i.account_id and c.id = i.contract_id
        where i.account_id = ? and c.site_id = ? and i.kind = 'invoice' and i.state in ('issued', 'paid') and i.period_end > ?::date
        order by i.period_start, i.id`,
      [accountId, siteId, from],
    );
    return rows.map((r) => ({ invoiceId: r.id, number: r.number, startDate: r.period_start, endDate: r.period_end }));
  }

  async lockSite(accountId: string, siteId: string): Promise<void> {
    await this.em.execute('select pg_advisory_xact_lock(hashtextextended(?, 1))', [siteLockKey(accountId, siteId)]);
  }

  async holdSites(accountId: string, siteIds: readonly string[]): Promise<void> {
    if (siteIds.length === 0) return;
    const keys = [...new Set(siteIds)].map((siteId) => siteLockKey(accountId, siteId));
    await boundQuery(this.em, 'select pg_advisory_xact_lock_shared(hashtextextended(k, 1)) from unnest(?::text[]) as k order by k', [keys]);
  }

  async takeDirty(accountId: string, siteId: string): Promise<DirtyRange[]> {
    // Converted outside RETURNING, which takes immutable functions only (extract on timestamptz is stable).
    const rows = await this.em.execute<{ from_at: string; to_at: string }[]>(
      `with taken as (delete from balancing_dirty_ranges where account_id = ? and site_id = ? and held_by_invoice_id is null returning from_at, to_at)
       select extract(epoch from from_at) * 1000 as from_at, extract(epoch from to_at) * 1000 as to_at from taken`,
      [accountId, siteId],
    );
    return rows.map((r) => ({ from: Number(r.from_at), to: Number(r.to_at) }));
  }

  async replaceDays(
    accountId: string,
    siteId: string,
    days: readonly string[],
    flows: readonly Flow[],
    states: readonly IntervalState[],
    splitOf: (day: string) => number,
    balance?: Pick<SiteBalance, 'buckets' | 'series'>,
  ): Promise<void> {
    // A UTC day's name once per day, not per row and state: toISOString is slow.
    const dayNames = new Map<number, string>();
    const dayName = (at: number) => {
      const day = Math.floor(at / DAY_MS);
      return dayNames.get(day) ?? dayNames.set(day, dayOf(at)).get(day)!;
    };
    const flowColumns = { day: [] as string[], kind: [] as string[], debitor: [] as string[], creditor: [] as string[], values: [] as string[], head: [] as (string | null)[], tail: [] as (string | null)[] };
    for (const row of flowRows(flows, balance, dayName)) {
      const split = splitOf(row.day);
      flowColumns.day.push(row.day);
      flowColumns.kind.push(row.kind);
      flowColumns.debitor.push(row.debitor_id);
      flowColumns.creditor.push(row.creditor_id);
      flowColumns.values.push(arrayLiteral(row.values));
      flowColumns.head.push(sumOf(row.values, 0, split));
      flowColumns.tail.push(sumOf(row.values, split, SLOTS_PER_DAY));
    }
    const stateDays = new Map<string, (number | null)[]>(days.map((day) => [day, new Array(SLOTS_PER_DAY).fill(null)]));
    for (const state of states) stateDays.get(dayName(state.at))![slotOf(state.at)] = state.balanced ? 1 : 0;
    const stateColumns = { day: [] as string[], states: [] as string[], head: [] as number[], tail: [] as number[] };
    for (const [day, values] of stateDays) {
      const split = splitOf(day);
      stateColumns.day.push(day);
      stateColumns.states.push(`{${values.map((state) => state ?? 'NULL').join(',')}}`);
      stateColumns.head.push(countBalanced(values, 0, split));
      stateColumns.tail.push(countBalanced(values, split, SLOTS_PER_DAY));
    }
    const sorted = [...days].sort();
    // One statement, so that it runs while the worker computes its next chunk: the driver sends a
    // queued statement only when this process takes the answer to the one before. The insert reads
    // `deleted` before its first row, so the delete runs first (all parts of a statement see its
    // start; the unique check sees rows deleted). The day range keeps the delete to the primary
    // key's days whatever the planner thinks of a table filled since its last analyze (given only
    // the set of days, it filters every row of the site). The rows come as one array per column,
    // a day's values as the text of its array: a site-year's 72,468 rows inserted from JSON records
    // took PostgreSQL 2.3 s, from such arrays 1.6–1.8 s (copied from a table: 0.5 s).
    await boundQuery(
      this.em,
      `with deleted as (
         delete from balance_days where account_id = ? and site_id = ? and day between ? and ? and day = any(?::date[]) returning 1
       ), flows as (
         insert into balance_days (account_id, site_id, day, kind, debitor_id, creditor_id, "values", head_wh, tail_wh)
         select ?, ?, r.day, r.kind, r.debitor_id, r.creditor_id, r."values"::bigint[], r.head_wh, r.tail_wh
           from unnest(?::date[], ?::text[], ?::uuid[], ?::uuid[], ?::text[], ?::bigint[], ?::bigint[]) as r(day, kind, debitor_id, creditor_id, "values", head_wh, tail_wh)
          where (select count(*) from deleted) >= 0
       )
       insert into balancing_days (account_id, site_id, day, states, head_balanced, tail_balanced, balanced_at)
       select ?, ?, r.day, r.states::smallint[], r.head_balanced, r.tail_balanced, now()
         from unnest(?::date[], ?::text[], ?::smallint[], ?::smallint[]) as r(day, states, head_balanced, tail_balanced)
       on conflict (account_id, site_id, day) do update
         set states = excluded.states, head_balanced = excluded.head_balanced, tail_balanced = excluded.tail_balanced, balanced_at = excluded.balanced_at`,
      [
        accountId,
        siteId,
        sorted[0],
        sorted.at(-1),
        sorted,
        accountId,
        siteId,
        flowColumns.day,
        flowColumns.kind,
        flowColumns.debitor,
        flowColumns.creditor,
        flowColumns.values,
        flowColumns.head,
        flowColumns.tail,
        accountId,
        siteId,
        stateColumns.day,
        stateColumns.states,
        stateColumns.head,
        stateColumns.tail,
      ],
    );
  }

  async flows(accountId: string, filter: FlowFilter, from: number, to: number): Promise<StoredFlow[]> {
    const rows = await this.em.execute<{ site_id: string; day: string; kind: FlowKind; debitor_id: string; creditor_id: string; values: string }[]>(
      `select b.site_id, b.day::text as day, b.kind, b.debitor_id, b.creditor_id, b."values"::text as "values"
       from balance_days b where b.account_id = ? and b.day between ?::date and ?::date
         and (?::uuid is null or b.site_id = ?::uuid)
         and (?::uuid is null or b.debitor_id = ?::uuid)
         and (?::uuid is null or b.creditor_id = ?::uuid)`,
      [
        accountId,
        dayOf(from),
        dayOf(to - 1),
        filter.siteId ?? null,
        filter.siteId ?? null,
        filter.debitorMeterId ?? null,
        filter.debitorMeterId ?? null,
        filter.creditorMeterId ?? null,
        filter.creditorMeterId ?? null,
      ],
    );
    const flows: StoredFlow[] = [];
    for (const row of rows) {
      const base = Date.parse(`${row.day}T00:00:00.000Z`);
      const [debitorId, creditorId] = [orNull(row.debitor_id), orNull(row.creditor_id)];
      row.values
        .slice(1, -1)
        .split(',')
        .forEach((cell, slot) => {
          const at = base + slot * QUARTER_HOUR_MS;
          if (cell !== 'NULL' && at >= from && at < to) flows.push({ siteId: row.site_id, at, kind: row.kind, debitorId, creditorId, wh: Number(cell) });
        });
    }
    return flows;
  }

  async status(accountId: string, siteId: string): Promise<BalancingStatusRow> {
    const [summary] = await this.em.execute<{ last_day: string | null; last_states: string | null; incomplete: string; first_incomplete_day: string | null; first_states: string | null; dirty: string }[]>(
      `select
         (select day::text from balancing_days where account_id = ? and site_id = ? and 1 = any(states) order by day desc limit 1) as last_day,
         (select states::text from balancing_days where account_id = ? and site_id = ? and 1 = any(states) order by day desc limit 1) as last_states,
         (select count(*) from balancing_days d cross join lateral unnest(d.states) s where d.account_id = ? and d.site_id = ? and s = 0) as incomplete,
         (select day::text from balancing_days where account_id = ? and site_id = ? and 0 = any(states) order by day limit 1) as first_incomplete_day,
         (select states::text from balancing_days where account_id = ? and site_id = ? and 0 = any(states) order by day limit 1) as first_states,
         (select count(*) from balancing_dirty_ranges where account_id = ? and site_id = ? and held_by_invoice_id is null) as dirty`,
      Array.from({ length: 6 }, () => [accountId, siteId]).flat(),
    );
    const held = await this.em.execute<{ from_at: string; to_at: string; invoice_id: string }[]>(
      `select extract(epoch from from_at) * 1000 as from_at, extract(epoch from to_at) * 1000 as to_at, held_by_invoice_id as invoice_id
         from balancing_dirty_ranges where account_id = ? and site_id = ? and held_by_invoice_id is not null order by from_at, to_at`,
      [accountId, siteId],
    );
    const slots = (text: string | null) => (text ? text.slice(1, -1).split(',') : []);
    const instantOf = (day: string, slot: number) => Date.parse(`${day}T00:00:00.000Z`) + slot * QUARTER_HOUR_MS;
    const lastSlot = slots(summary!.last_states).lastIndexOf('1');
    const firstIncomplete = slots(summary!.first_states).indexOf('0');
    return {
      lastBalancedAt: summary!.last_day && lastSlot >= 0 ? instantOf(summary!.last_day, lastSlot) : null,
      incompleteIntervals: Number(summary!.incomplete),
      firstIncompleteAt: summary!.first_incomplete_day && firstIncomplete >= 0 ? instantOf(summary!.first_incomplete_day, firstIncomplete) : null,
      dirtyRanges: Number(summary!.dirty),
      held: held.map((r) => ({ from: Number(r.from_at), to: Number(r.to_at), invoiceId: r.invoice_id })),
    };
  }

  async dirtySites(): Promise<{ accountId: string; siteId: string }[]> {
    const rows = await this.em.execute<{ account_id: string; site_id: string }[]>('select distinct account_id, site_id from balancing_dirty_ranges where held_by_invoice_id is null');
    return rows.map((r) => ({ accountId: r.account_id, siteId: r.site_id }));
  }

  async hold(accountId: string, siteId: string, held: readonly HeldRange[]): Promise<void> {
    if (held.length === 0) return;
    await this.em.execute(
      `insert into balancing_dirty_ranges (id, account_id, site_id, from_at, to_at, held_by_invoice_id)
       select gen_random_uuid(), ?, ?, to_timestamp(r.from_at / 1000.0), to_timestamp(r.to_at / 1000.0), r.invoice_id
       from json_to_recordset(?::json) as r(from_at bigint, to_at bigint, invoice_id uuid)`,
      [accountId, siteId, JSON.stringify(held.map((h) => ({ from_at: h.from, to_at: h.to, invoice_id: h.invoiceId })))],
    );
  }

  async releaseHeld(): Promise<void> {
    await this.em.execute(
      `update balancing_dirty_ranges r set held_by_invoice_id = null
        where r.held_by_invoice_id is not null
          and not exists (select 1 from invoices i where i.account_id = r.account_id and i.id = r.held_by_invoice_id and i.state in ('issued', 'paid'))`,
    );
  }

  async storedStates(accountId: string, siteId: string, from: number, to: number): Promise<IntervalState[]> {
    const rows = await this.em.execute<{ day: string; states: string }[]>(
      'select day::text as day, states::text as states from balancing_days where account_id = ? and site_id = ? and day between ?::date and ?::date',
      [accountId, siteId, dayOf(from), dayOf(to - 1)],
    );
    const states: IntervalState[] = [];
    for (const row of rows) {
      const base = Date.parse(`${row.day}T00:00:00.000Z`);
      row.states
        .slice(1, -1)
        .split(',')
        .forEach((cell, slot) => {
          const at = base + slot * QUARTER_HOUR_MS;
          if (cell !== 'NULL' && at >= from && at < to) states.push({ at, balanced: cell === '1' });
        });
    }
    return states;
  }
}
