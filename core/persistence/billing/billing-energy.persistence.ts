import type { EntityManager } from '@mikro-orm/postgresql';
import type { BillingEnergyRepository, DailyEnergy, ReceivedPrepayment } from '../../billing/invoices/billing-energy.repository.js';

/**
 * Day rows of `table` (one UTC day each) with `first_local`, the local date at the row's first
 * quarter hour: the row's `head_*` total belongs to it, its `tail_*` total to the next local day
 * (balancing stores both, split at local midnight), so bills read days without unnesting slots.
 * Parameters: timezone, account, site, first and last local day (the UTC rows of the day before
 * the first are scanned too).
 */
const withLocalDay = (table: string, extraWhere = '') => `
  select b.*, ((b.day::timestamp at time zone 'UTC') at time zone ?)::date as first_local
    from ${table} b
   where b.account_id = ? and b.site_id = ? and b.day between ?::date - 1 and ?::date ${extraWhere}`;

export class MikroBillingEnergyRepository implements BillingEnergyRepository {
  constructor(private readonly em: EntityManager) {}

  async balancedEnergy(accountId: string, siteId: string, meterIds: readonly string[], fromDay: string, toDay: string, timezone: string): Promise<DailyEnergy[]> {
    if (meterIds.length === 0) return [];
    const rows = await this.em.execute<{ meter_id: string; kind: 'local' | 'grid'; day: string; wh: string }[]>(
      `with parts as (${withLocalDay('balance_days', `and b.kind in ('local', 'grid') and b.debitor_id in (select value::uuid from json_array_elements_text(?::json))`)}),
       sums as (
         select debitor_id, kind, first_local as local_day, head_wh as wh from parts
         union all
         select debitor_id, kind, first_local + 1, tail_wh from parts
       )
       select debitor_id as meter_id, kind, to_char(local_day, 'YYYY-MM-DD') as day, sum(wh)::text as wh
         from sums where wh is not null and local_day >= ?::date and local_day < ?::date
        group by 1, 2, 3`,
      [timezone, accountId, siteId, fromDay, toDay, JSON.stringify(meterIds), fromDay, toDay],
    );
    return rows.map((row) => ({ meterId: row.meter_id, kind: row.kind, day: row.day, wh: BigInt(row.wh) }));
  }

  async balancedIntervalsPerDay(accountId: string, siteId: string, fromDay: string, toDay: string, timezone: string): Promise<Map<string, number>> {
    const rows = await this.em.execute<{ day: string; balanced: string }[]>(
      `with parts as (${withLocalDay('balancing_days')}),
       counts as (
         select first_local as local_day, head_balanced as n from parts
         union all
         select first_local + 1, tail_balanced from parts
       )
       select to_char(local_day, 'YYYY-MM-DD') as day, sum(n)::text as balanced
         from counts where local_day >= ?::date and local_day < ?::date
        group by 1`,
      [timezone, accountId, siteId, fromDay, toDay, fromDay, toDay],
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
