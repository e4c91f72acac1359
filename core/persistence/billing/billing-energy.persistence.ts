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

/** The local dates a UTC day's first quarter hour and its local-midnight tail fall on, kept per UTC day. */
type LocalDays = (utcDay: string) => readonly [string, string];

function localDaysIn(timezone: string): LocalDays {
  const known = new Map<string, [string, string]>();
  return (utcDay) => {
    let days = known.get(utcDay);
    if (!days) {
      const first = calendarDateOf(new Date(`${utcDay}T00:00:00.000Z`), timezone);
      known.set(utcDay, (days = [first, addDays(first, 1)]));
    }
    return days;
  };
}

/**
 * Splits UTC day rows into local days: a row's `head` total belongs to the local date at its first
 * quarter hour, its `tail` total to the next local day (balancing stores both, split at local
 * midnight), so bills read days without unnesting slots. Calls `add` for each part on a local day
 * in [fromDay, toDay). The rows are read from the day before `fromDay` (its tail may be on it).
 */
function eachLocalDay<R extends DayRow>(rows: readonly R[], localDays: LocalDays, fromDay: string, toDay: string, add: (row: R, day: string, value: string) => void): void {
  for (const row of rows) {
    const days = localDays(row.day);
    if (row.head !== null && days[0] >= fromDay && days[0] < toDay) add(row, days[0], row.head);
    if (row.tail !== null && days[1] >= fromDay && days[1] < toDay) add(row, days[1], row.tail);
  }
}

/** The elements of a one-dimensional array of dates or integers as PostgreSQL writes it ("{a,NULL,b}"). */
function arrayText(text: string): (string | null)[] {
  return text.slice(1, -1).split(',').map((element) => (element === 'NULL' ? null : element));
}

export class MikroBillingEnergyRepository implements BillingEnergyRepository {
  constructor(private readonly em: EntityManager) {}

  async balancedEnergy(accountId: string, siteId: string, meterIds: readonly string[], fromDay: string, toDay: string, timezone: string): Promise<DailyEnergy[]> {
    if (meterIds.length === 0) return [];
    // Only the day totals are read (the slot arrays stay on disk), a row per meter and kind with its
    // days as arrays: parsing a row per day and creditor cost this process more than grouping costs
    // the database. They are summed per local day here.
    const rows = await boundQuery<{ meter_id: string; kind: 'local' | 'grid'; days: string; heads: string; tails: string }>(
      this.em,
      `select debitor_id as meter_id, kind, array_agg(day)::text as days, array_agg(head_wh)::text as heads, array_agg(tail_wh)::text as tails
         from balance_days
        where account_id = ? and site_id = ? and day between ?::date - 1 and ?::date and kind in ('local', 'grid') and debitor_id = any(?::uuid[])
        group by debitor_id, kind`,
      [accountId, siteId, fromDay, toDay, meterIds],
    );
    const localDays = localDaysIn(timezone);
    return rows.flatMap(({ meter_id: meterId, kind, days, heads, tails }) => {
      const [day, head, tail] = [days, heads, tails].map(arrayText);
      const sums = new Map<string, bigint>();
      eachLocalDay(
        day!.map((value, i) => ({ day: value!, head: head![i]!, tail: tail![i]! })),
        localDays,
        fromDay,
        toDay,
        (_row, localDay, wh) => sums.set(localDay, (sums.get(localDay) ?? 0n) + BigInt(wh)),
      );
      return [...sums].map(([localDay, wh]): DailyEnergy => ({ meterId, kind, day: localDay, wh }));
    });
  }

  async balancedIntervalsPerDay(accountId: string, siteId: string, fromDay: string, toDay: string, timezone: string): Promise<Map<string, number>> {
    const rows = await boundQuery<DayRow>(
      this.em,
      `select day::text as day, head_balanced::text as head, tail_balanced::text as tail from balancing_days
        where account_id = ? and site_id = ? and day between ?::date - 1 and ?::date`,
      [accountId, siteId, fromDay, toDay],
    );
    const perDay = new Map<string, number>();
    eachLocalDay(rows, localDaysIn(timezone), fromDay, toDay, (_row, day, balanced) => perDay.set(day, (perDay.get(day) ?? 0) + Number(balanced)));
    return perDay;
  }

  async receivedPrepayments(accountId: string, contractIds: readonly string[], before: string): Promise<ReceivedPrepayment[]> {
    if (contractIds.length === 0) return [];
    const rows = await this.em.execute<{ id: string; contract_id: string; amount: string }[]>(
      `select p.id, p.contract_id, p.amount::text from payments p
        where p.account_id = ? and p.contract_id in (select value::uuid from json_array_elements_text(?::json))
          and p.type = 'prepayment' and p.state = 'received' and p.locked_at is null and p.due_date < ?::date
          and not exists (select from payments first where first.account_id = p.account_id and first.id = p.replaces_payment_id and first.locked_at is not null)
        order by p.due_date, p.id`,
      [accountId, JSON.stringify(contractIds), before],
    );
    return rows.map((row) => ({ id: row.id, contractId: row.contract_id, amount: BigInt(row.amount) }));
  }
}
