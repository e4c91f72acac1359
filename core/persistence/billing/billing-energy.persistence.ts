import type { EntityManager } from '@mikro-orm/postgresql';
import { boundQuery } from '../bound-query.js';
import { addDays, calendarDateOf } from '../../domain/time/calendar-date.js';
import type { BillingEnergyRepository, DailyEnergy, ReceivedPrepayment } from '../../billing/invoices/billing-energy.repository.js';

/** A day row (one UTC day) of balance_days or balancing_days with its totals before and after local midnight. */
interface DayRow {
  day: string;
  head: string | null;
  tail: string | null;
}

/**
 * Splits UTC day rows into local days: a row's `head` total belongs to the local date at its first
 * quarter hour, its `tail` total to the next local day (balancing stores both, split at local
 * midnight), so bills read days without unnesting slots. Calls `add` for each part on a local day
 * in [fromDay, toDay). The rows are read from the day before `fromDay` (its tail may be on it).
 */
function eachLocalDay<R extends DayRow>(rows: readonly R[], timezone: string, fromDay: string, toDay: string, add: (row: R, day: string, value: string) => void): void {
  const localDays = new Map<string, [string, string]>();
  for (const row of rows) {
    let days = localDays.get(row.day);
    if (!days) {
      const first = calendarDateOf(new Date(`${row.day}T00:00:00.000Z`), timezone);
      localDays.set(row.day, (days = [first, addDays(first, 1)]));
    }
    if (row.head !== null && days[0] >= fromDay && days[0] < toDay) add(row, days[0], row.head);
    if (row.tail !== null && days[1] >= fromDay && days[1] < toDay) add(row, days[1], row.tail);
  }
}

export class MikroBillingEnergyRepository implements BillingEnergyRepository {
  constructor(private readonly em: EntityManager) {}

  async balancedEnergy(accountId: string, siteId: string, meterIds: readonly string[], fromDay: string, toDay: string, timezone: string): Promise<DailyEnergy[]> {
    if (meterIds.length === 0) return [];
    // Only the day totals are read (the slot arrays stay on disk) and summed here: sorting and
    // grouping some 10,000 parts per site cost the database more than this loop.
    const rows = await boundQuery<DayRow & { meter_id: string; kind: 'local' | 'grid' }>(
      this.em,
      `select debitor_id as meter_id, kind, day::text as day, head_wh::text as head, tail_wh::text as tail from balance_days
        where account_id = ? and site_id = ? and day between ?::date - 1 and ?::date and kind in ('local', 'grid') and debitor_id = any(?::uuid[])`,
      [accountId, siteId, fromDay, toDay, meterIds],
    );
    const sums = new Map<string, DailyEnergy>();
    eachLocalDay(rows, timezone, fromDay, toDay, (row, day, wh) => {
      const key = `${row.meter_id}|${row.kind}|${day}`;
      const known = sums.get(key);
      if (known) known.wh += BigInt(wh);
      else sums.set(key, { meterId: row.meter_id, kind: row.kind, day, wh: BigInt(wh) });
    });
    return [...sums.values()];
  }

  async balancedIntervalsPerDay(accountId: string, siteId: string, fromDay: string, toDay: string, timezone: string): Promise<Map<string, number>> {
    const rows = await boundQuery<DayRow>(
      this.em,
      `select day::text as day, head_balanced::text as head, tail_balanced::text as tail from balancing_days
        where account_id = ? and site_id = ? and day between ?::date - 1 and ?::date`,
      [accountId, siteId, fromDay, toDay],
    );
    const perDay = new Map<string, number>();
    eachLocalDay(rows, timezone, fromDay, toDay, (_row, day, balanced) => perDay.set(day, (perDay.get(day) ?? 0) + Number(balanced)));
    return perDay;
  }

  async receivedPrepayments(accountId: string, contractIds: readonly string[], before: string): Promise<ReceivedPrepayment[]> {
    if (contractIds.length === 0) return [];
    const rows = await this.em.execute<{ id: string; contract_id: string; amount: string }[]>(
      `select id, contract_id, amount::text from payments
        where account_id = ? and contract_id in (select value::uuid from json_array_elements_text(?::json))
          and type = 'prepayment' and state = 'received' and locked_at is null and due_date < ?::date
        order by due_date, id`,
      [accountId, JSON.stringify(contractIds), before],
    );
    return rows.map((row) => ({ id: row.id, contractId: row.contract_id, amount: BigInt(row.amount) }));
  }
}
