import type { EntityManager } from '@mikro-orm/postgresql';
import type { BillingEnergyRepository, DailyEnergy, ReceivedPrepayment } from '../../billing/billing-energy.repository.js';

/** A UTC instant as the naive timestamp the day rows' slots are computed in. */
const utc = (at: number) => new Date(at).toISOString().slice(0, 23).replace('T', ' ');
const day = (at: number) => new Date(at).toISOString().slice(0, 10);

/** Slot `n` (1-based) of a UTC day row starts at `day + (n - 1) × 15 min`. */
const SLOT_START = `(b.day + (s.slot - 1) * interval '15 minutes')`;

export class MikroBillingEnergyRepository implements BillingEnergyRepository {
  constructor(private readonly em: EntityManager) {}

  async balancedEnergy(accountId: string, siteId: string, meterIds: readonly string[], from: number, to: number, timezone: string): Promise<DailyEnergy[]> {
    if (meterIds.length === 0) return [];
    const rows = await this.em.execute<{ meter_id: string; kind: 'local' | 'grid'; day: string; wh: string }[]>(
      `select b.debitor_id as meter_id, b.kind,
              to_char((${SLOT_START} at time zone 'UTC') at time zone ?, 'YYYY-MM-DD') as day,
              sum(s.wh)::text as wh
         from balance_days b cross join lateral unnest(b."values") with ordinality as s(wh, slot)
        where b.account_id = ? and b.site_id = ? and b.kind in ('local', 'grid')
          and b.debitor_id in (select value::uuid from json_array_elements_text(?::json))
          and b.day between ?::date and ?::date
          and s.wh is not null and ${SLOT_START} >= ?::timestamp and ${SLOT_START} < ?::timestamp
        group by 1, 2, 3`,
      [timezone, accountId, siteId, JSON.stringify(meterIds), day(from), day(to - 1), utc(from), utc(to)],
    );
    return rows.map((row) => ({ meterId: row.meter_id, kind: row.kind, day: row.day, wh: BigInt(row.wh) }));
  }

  async balancedIntervalsPerDay(accountId: string, siteId: string, from: number, to: number, timezone: string): Promise<Map<string, number>> {
    const rows = await this.em.execute<{ day: string; balanced: string }[]>(
      `select to_char((${SLOT_START} at time zone 'UTC') at time zone ?, 'YYYY-MM-DD') as day, count(*) as balanced
         from balancing_days b cross join lateral unnest(b.states) with ordinality as s(state, slot)
        where b.account_id = ? and b.site_id = ? and b.day between ?::date and ?::date
          and s.state = 1 and ${SLOT_START} >= ?::timestamp and ${SLOT_START} < ?::timestamp
        group by 1`,
      [timezone, accountId, siteId, day(from), day(to - 1), utc(from), utc(to)],
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
