import type { EntityManager } from '@mikro-orm/postgresql';
import { boundQuery } from '../bound-query.js';
import type { BillingEnergyRepository, DailyEnergy, ReceivedPrepayment } from '../../billing/invoices/billing-energy.repository.js';

/**
 * The day rows of `table` (one UTC day each) split into their two local days: a row's `head_*`
 * total belongs to `first_local`, the local date at its first quarter hour, its `tail_*` total to
 * the next local day (balancing stores both, split at local midnight), so bills read days without
 * unnesting slots. Only the columns named are read: the slot arrays stay on disk.
 * Parameters: timezone, account, site, first and last local day (the UTC rows of the day before
 * the first are scanned too), then those of `extraWhere`, then the first and last local day again.
 */
const localDayParts = (table: string, head: string, tail: string, columns: string, extraWhere = '') => `
  select ${columns}, part.local_day, part.value
    from ${table} b
   cross join lateral (select ((b.day::timestamp at time zone 'UTC') at time zone ?)::date as first_local) f
   cross join lateral (values (f.first_local, b.${head}), (f.first_local + 1, b.${tail})) part(local_day, value)
   where b.account_id = ? and b.site_id = ? and b.day between ?::date - 1 and ?::date ${extraWhere}
     and part.value is not null and part.local_day >= ?::date and part.local_day < ?::date`;

export class MikroBillingEnergyRepository implements BillingEnergyRepository {
  constructor(private readonly em: EntityManager) {}

  async balancedEnergy(accountId: string, siteId: string, meterIds: readonly string[], fromDay: string, toDay: string, timezone: string): Promise<DailyEnergy[]> {
    if (meterIds.length === 0) return [];
    const rows = await boundQuery<{ meter_id: string; kind: 'local' | 'grid'; day: string; wh: string }>(
      this.em,
      `select meter_id, kind, to_char(local_day, 'YYYY-MM-DD') as day, sum(value)::text as wh
         from (${localDayParts('balance_days', 'head_wh', 'tail_wh', 'b.debitor_id as meter_id, b.kind', `and b.kind in ('local', 'grid') and b.debitor_id = any(?::uuid[])`)}) parts
        group by meter_id, kind, local_day`,
      [timezone, accountId, siteId, fromDay, toDay, meterIds, fromDay, toDay],
    );
    return rows.map((row) => ({ meterId: row.meter_id, kind: row.kind, day: row.day, wh: BigInt(row.wh) }));
  }

  async balancedIntervalsPerDay(accountId: string, siteId: string, fromDay: string, toDay: string, timezone: string): Promise<Map<string, number>> {
    const rows = await this.em.execute<{ day: string; balanced: string }[]>(
      `select to_char(local_day, 'YYYY-MM-DD') as day, sum(value)::text as balanced
         from (${localDayParts('balancing_days', 'head_balanced', 'tail_balanced', 'b.site_id')}) parts
        group by local_day`,
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
