import { beforeAll, describe, expect, it } from 'vitest';
import { NIL_UUID } from '../../core/domain/balancing/balance-rows.js';
import { addDays, calendarDateOf, localDaySplit } from '../../core/domain/time/calendar-date.js';
import { MikroBillingEnergyRepository } from '../../core/persistence/billing/billing-energy.persistence.js';
import { useRepositoryDatabase } from '../support/repository-database.js';

const QH = 900_000;
/** UTC days around the end of summer time in Europe (25 Oct) and in the USA (1 Nov). */
const UTC_DAYS = Array.from({ length: 14 }, (_, d) => addDays('2026-10-21', d));
const FROM_DAY = '2026-10-22';
const TO_DAY = '2026-11-03';
const ZONES = ['Europe/Berlin', 'America/New_York', 'Pacific/Kiritimati', 'Asia/Kathmandu', 'UTC'];

const wh = (meter: number, kind: number, day: number, slot: number) => 10 * meter + 3 * kind + ((day * 7 + slot * 13) % 41);
/** Some quarter hours of each day are not balanced. */
const balanced = (day: number, slot: number) => (day + slot) % 17 !== 0;

/**
 * The billing reads against a model of the stored slots: each quarter hour's energy and state
 * belong to the local day of its instant, whatever the zone's offset (east or west of UTC, with
 * or without a switch of the clocks in the period). The rows are written as balancing writes them,
 * with their totals before and after local midnight.
 */
describe('MikroBillingEnergyRepository on PostgreSQL', () => {
  const db = useRepositoryDatabase();
  let accountId: string;

  beforeAll(async () => {
    accountId = (await db.account()).accountId;
  });

  it.each(ZONES)('sums balanced energy and counts balanced quarter hours per local day in %s', async (zone) => {
    const site = await db.site(accountId);
    const producer = await db.meter(accountId, site.id, { direction: 'producer' });
    const consumers = [await db.meter(accountId, site.id), await db.meter(accountId, site.id), await db.meter(accountId, site.id)];
    const energy = new Map<string, bigint>();
    const intervals = new Map<string, number>();
    const dayRows: object[] = [];
    const balanceRows: object[] = [];
    for (const [d, day] of UTC_DAYS.entries()) {
      const split = localDaySplit(day, zone);
      const states = Array.from({ length: 96 }, (_, slot) => (balanced(d, slot) ? 1 : 0));
      const count = (from: number, to: number) => states.slice(from, to).filter((s) => s === 1).length;
      dayRows.push({ day, states, head_balanced: count(0, split), tail_balanced: count(split, 96) });
      for (let slot = 0; slot < 96; slot++) {
        const local = calendarDateOf(new Date(Date.parse(`${day}T00:00:00.000Z`) + slot * QH), zone);
        if (balanced(d, slot) && local >= FROM_DAY && local < TO_DAY) intervals.set(local, (intervals.get(local) ?? 0) + 1);
      }
      for (const [m, consumer] of consumers.entries()) {
        for (const [k, kind] of (['local', 'grid'] as const).entries()) {
          // The third consumer has no grid energy at all.
          if (m === 2 && kind === 'grid') continue;
          const values = Array.from({ length: 96 }, (_, slot) => wh(m, k, d, slot));
          const sum = (from: number, to: number) => values.slice(from, to).reduce((a, b) => a + b, 0);
          balanceRows.push({
            day,
            kind,
            debitor_id: consumer.id,
            creditor_id: kind === 'local' ? producer.id : NIL_UUID,
            values,
            head_wh: split > 0 ? sum(0, split) : null,
            tail_wh: split < 96 ? sum(split, 96) : null,
          });
          values.forEach((value, slot) => {
            const local = calendarDateOf(new Date(Date.parse(`${day}T00:00:00.000Z`) + slot * QH), zone);
            if (local < FROM_DAY || local >= TO_DAY) return;
            const key = `${consumer.id}|${kind}|${local}`;
            energy.set(key, (energy.get(key) ?? 0n) + BigInt(value));
          });
        }
      }
    }
    await db.sql(
      `insert into balancing_days (account_id, site_id, day, states, balanced_at, head_balanced, tail_balanced)
       select $1, $2, r.day, r.states, now(), r.head_balanced, r.tail_balanced
         from json_to_recordset($3::json) as r(day date, states smallint[], head_balanced smallint, tail_balanced smallint)`,
      [accountId, site.id, JSON.stringify(dayRows)],
    );
    await db.sql(
      `insert into balance_days (account_id, site_id, day, kind, debitor_id, creditor_id, "values", head_wh, tail_wh)
       select $1, $2, r.day, r.kind, r.debitor_id, r.creditor_id, r."values", r.head_wh, r.tail_wh
         from json_to_recordset($3::json) as r(day date, kind text, debitor_id uuid, creditor_id uuid, "values" bigint[], head_wh bigint, tail_wh bigint)`,
      [accountId, site.id, JSON.stringify(balanceRows)],
    );
    const repo = new MikroBillingEnergyRepository(db.orm.em);
    // The first two consumers are asked for; the third's energy is not read.
    const asked = new Set([consumers[0]!.id, consumers[1]!.id]);
    const read = await db.inContext(() => repo.balancedEnergy(accountId, site.id, [...asked], FROM_DAY, TO_DAY, zone));
    const expected = [...energy].filter(([key]) => asked.has(key.split('|')[0]!));
    expect(new Map(read.map((row) => [`${row.meterId}|${row.kind}|${row.day}`, row.wh]))).toEqual(new Map(expected));
    expect(read).toHaveLength(expected.length);
    expect(await db.inContext(() => repo.balancedIntervalsPerDay(accountId, site.id, FROM_DAY, TO_DAY, zone))).toEqual(intervals);
    // A day of 23 or 25 hours has 92 or 100 quarter hours; here each local day of the period has its own count.
    expect([...intervals.keys()].sort()).toEqual(Array.from({ length: 12 }, (_, d) => addDays(FROM_DAY, d)));
  });
});
