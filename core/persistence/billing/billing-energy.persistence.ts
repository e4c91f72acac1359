import type { EntityManager } from '@mikro-orm/postgresql';
import type { BillingEnergyRepository, DailyEnergy, ReceivedPrepayment } from '../../billing/billing-energy.repository.js';

/**
 * Day rows of `table` (96 quarter-hour slots of one UTC day) with where each splits between two
 * local days: `first_local` is the local date at the row's first slot, slots `[1, split]` belong to
 * it and `[split + 1, 96]` to the next one. Computed once per row, never per slot, so a month of a
 * site's meters is summed without converting 150,000 timestamps. Parameters: timezone (twice),
 * account, site, first and last local day (the UTC rows of the day before the first are scanned too).
 */
const localDaySplit = (table: string, extraWhere = '') => `
  select b.*, l.first_local,
         (extract(epoch from (((l.first_local + 1)::timestamp at time zone ?) - (b.day::timestamp at time zone 'UTC'))) / 900)::int as split
    from ${table} b
    cross join lateral (select ((b.day::timestamp at time zone 'UTC') at time zone ?)::date as first_local) l
   where b.account_id = ? and b.site_id = ? and b.day between ?::date - 1 and ?::date ${extraWhere}`;

export class MikroBillingEnergyRepository implements BillingEnergyRepository {
  constructor(private readonly em: EntityManager) {}

  async balancedEnergy(accountId: string, siteId: string, meterIds: readonly string[], fromDay: string, toDay: string, timezone: string): Promise<DailyEnergy[]> {
    if (meterIds.length === 0) return [];
    const rows = await this.em.execute<{ meter_id: string; kind: 'local' | 'grid'; day: string; wh: string }[]>(
      `with parts as (${localDaySplit('balance_days', `and b.kind in ('local', 'grid') and b.debitor_id in (select value::uuid from json_array_elements_text(?::json))`)}),
       sums as (
         select debitor_id, kind, first_local as local_day, (select sum(v) from unnest("values"[1:split]) v) as wh from parts
         union all
         select debitor_id, kind, first_local + 1, (select sum(v) from unnest("values"[split + 1:96]) v) from parts
       )
       select debitor_id as meter_id, kind, to_char(local_day, 'YYYY-MM-DD') as day, sum(wh)::text as wh
         from sums where wh is not null and local_day >= ?::date and local_day < ?::date
        group by 1, 2, 3`,
      [timezone, timezone, accountId, siteId, fromDay, toDay, JSON.stringify(meterIds), fromDay, toDay],
    );
    return rows.map((row) => ({ meterId: row.meter_id, kind: row.kind, day: row.day, wh: BigInt(row.wh) }));
  }

  async balancedIntervalsPerDay(accountId: string, siteId: string, fromDay: string, toDay: string, timezone: string): Promise<Map<string, number>> {
    const rows = await this.em.execute<{ day: string; balanced: string }[]>(
      `with parts as (${localDaySplit('balancing_days')}),
       counts as (
         select first_local as local_day, (select count(*) from unnest(states[1:split]) s where s = 1) as n from parts
         union all
         select first_local + 1, (select count(*) from unnest(states[split + 1:96]) s where s = 1) from parts
       )
       select to_char(local_day, 'YYYY-MM-DD') as day, sum(n)::text as balanced
         from counts where local_day >= ?::date and local_day < ?::date
        group by 1`,
      [timezone, timezone, accountId, siteId, fromDay, toDay, fromDay, toDay],
    );
    return new Map(rows.map((row) => [row.day, Number(row.balanced)]));
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
