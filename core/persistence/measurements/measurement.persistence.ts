import { defineEntity, p } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Measurement } from '../../domain/measurements/ingest.js';
import { dayOf, instantOf, MeasurementDay, slotOf, SLOTS_PER_DAY, SparseReading } from '../../domain/measurements/measurement-day.js';
import type { MeasurementRepository, SeriesRange, StoredPoint } from '../../measurements/measurements.repository.js';
import { QUARTER_HOUR_MS } from '../../domain/time/buckets.js';
import { boundQuery } from '../bound-query.js';
import { MeterEntity } from '../meters/meter.persistence.js';
import { accountKey, tenantForeignKey } from '../tenant-keys.js';

export const MeasurementDayEntity = defineEntity({
  class: MeasurementDay,
  tableName: 'measurement_days',
  properties: {
    accountId: accountKey,
    meterId: p.uuid().fieldName('meter_id').primary(),
    meter: tenantForeignKey(() => MeterEntity, 'meter_id'),
    day: p.string().columnType('date').primary(),
    values: p.string().columnType('bigint[]'),
  },
});

export const SparseReadingEntity = defineEntity({
  class: SparseReading,
  tableName: 'meter_readings',
  properties: {
    accountId: accountKey,
    meterId: p.uuid().fieldName('meter_id').primary(),
    meter: tenantForeignKey(() => MeterEntity, 'meter_id'),
    at: p.datetime(3).primary(),
    wh: p.bigint('number'),
  },
});

/** Every stored point of the selected day rows and readings, as (meter, epoch ms, Wh). */
const POINTS = `
  select d.meter_id, extract(epoch from d.day::timestamp) * 1000 + (s.slot - 1) * 900000 as at, s.wh
  from measurement_days d cross join lateral unnest(d.values) with ordinality as s(wh, slot)
  where s.wh is not null`;

interface PointRow {
  meter_id: string;
  at: string | number;
  wh: string | number;
}

function grouped(rows: PointRow[]): Map<string, StoredPoint[]> {
  const series = new Map<string, StoredPoint[]>();
  for (const row of rows) {
    const points = series.get(row.meter_id) ?? [];
    points.push({ at: Number(row.at), wh: Number(row.wh) });
    series.set(row.meter_id, points);
  }
  return series;
}

export class MikroMeasurementRepository implements MeasurementRepository {
  constructor(private readonly em: EntityManager) {}

  async lockMeters(accountId: string, meterIds: readonly string[]): Promise<void> {
    const keys = [...meterIds].sort().map((id) => `${accountId}/${id}`);
    await this.em.execute('select pg_advisory_xact_lock(hashtextextended(k, 0)) from json_array_elements_text(?::json) as k order by k', [JSON.stringify(keys)]);
  }

  async load(accountId: string, ranges: readonly SeriesRange[]): Promise<Map<string, StoredPoint[]>> {
    if (ranges.length === 0) return new Map();
    const json = JSON.stringify(ranges.map((r) => ({ meter_id: r.meterId, from_day: dayOf(r.from), to_day: dayOf(r.to), from_at: r.from, to_at: r.to })));
    // Day rows come back as array text and are unpacked here: far cheaper than a row per value.
    const days = await this.em.execute<{ meter_id: string; day: string; values: string }[]>(
      `select d.meter_id, d.day::text as day, d."values"::text as "values"
       from measurement_days d join json_to_recordset(?::json) as r(meter_id uuid, from_day date, to_day date) on d.meter_id = r.meter_id and d.day between r.from_day and r.to_day
       where d.account_id = ? order by d.meter_id, d.day`,
      [json, accountId],
    );
    const readings = await this.em.execute<PointRow[]>(
      `select m.meter_id, extract(epoch from m.at) * 1000 as at, m.wh
       from meter_readings m join json_to_recordset(?::json) as r(meter_id uuid, from_at bigint, to_at bigint) on m.meter_id = r.meter_id
       where m.account_id = ? and m.at between to_timestamp(r.from_at / 1000.0) and to_timestamp(r.to_at / 1000.0) order by 1, 2`,
      [json, accountId],
    );
    const bounds = new Map(ranges.map((r) => [r.meterId, r]));
    const series = grouped(readings);
    for (const row of days) {
      const { from, to } = bounds.get(row.meter_id)!;
      const points = series.get(row.meter_id) ?? [];
      const base = instantOf(row.day, 0);
      row.values
        .slice(1, -1)
        .split(',')
        .forEach((cell, slot) => {
          const at = base + slot * QUARTER_HOUR_MS;
          if (cell !== 'NULL' && at >= from && at <= to) points.push({ at, wh: Number(cell) });
        });
      series.set(row.meter_id, points);
    }
    for (const points of series.values()) points.sort((x, y) => x.at - y.at);
    return series;
  }

  async neighbours(accountId: string, around: readonly { meterId: string; before: number; after: number }[]): Promise<Map<string, StoredPoint[]>> {
    if (around.length === 0) return new Map();
    const json = JSON.stringify(around.map((a) => ({ meter_id: a.meterId, before_at: a.before, after_at: a.after })));
    const rows = await this.em.execute<PointRow[]>(
      `with r as (select * from json_to_recordset(?::json) as r(meter_id uuid, before_at bigint, after_at bigint)),
       points as (
         select p.* from r cross join lateral (
           (select meter_id, at, wh from (${POINTS} and d.account_id = ? and d.meter_id = r.meter_id
              and d.day <= (to_timestamp(r.before_at / 1000.0) at time zone 'UTC')::date) g
            where g.at < r.before_at order by g.at desc limit 1)
           union all
           (select meter_id, at, wh from (${POINTS} and d.account_id = ? and d.meter_id = r.meter_id
              and d.day >= (to_timestamp(r.after_at / 1000.0) at time zone 'UTC')::date) g
            where g.at > r.after_at order by g.at limit 1)
           union all
           (select meter_id, extract(epoch from at) * 1000, wh from meter_readings m
            where m.account_id = ? and m.meter_id = r.meter_id and m.at < to_timestamp(r.before_at / 1000.0) order by m.at desc limit 1)
           union all
           (select meter_id, extract(epoch from at) * 1000, wh from meter_readings m
            where m.account_id = ? and m.meter_id = r.meter_id and m.at > to_timestamp(r.after_at / 1000.0) order by m.at limit 1)
         ) p
       )
       select * from points order by 1, 2`,
      [json, accountId, accountId, accountId, accountId],
    );
    return grouped(rows);
  }

  async save(accountId: string, onGrid: readonly Measurement[], offGrid: readonly Measurement[]): Promise<void> {
    if (onGrid.length > 0) {
      const days = new Map<string, { meter_id: string; day: string; values: (number | null)[] }>();
      for (const m of onGrid) {
        const day = dayOf(m.at);
        const key = `${m.meterId}/${day}`;
        let row = days.get(key);
        if (!row) days.set(key, (row = { meter_id: m.meterId, day, values: new Array<number | null>(SLOTS_PER_DAY).fill(null) }));
        row.values[slotOf(m.at)] = m.wh;
      }
      // New slots win, the others keep what was stored: one statement, whatever the size.
      await boundQuery(
        this.em,
        `insert into measurement_days (account_id, meter_id, day, "values")
         select ?, r.meter_id, r.day, r."values" from json_to_recordset(?::json) as r(meter_id uuid, day date, "values" bigint[])
         on conflict (account_id, meter_id, day) do update set "values" = (
           select array_agg(coalesce(n, o) order by i) from unnest(excluded."values", measurement_days."values") with ordinality as t(n, o, i))`,
        [accountId, JSON.stringify([...days.values()])],
      );
    }
    if (offGrid.length > 0) {
      await this.em.execute(
        `insert into meter_readings (account_id, meter_id, at, wh)
         select ?, r.meter_id, to_timestamp(r.at / 1000.0), r.wh from json_to_recordset(?::json) as r(meter_id uuid, at bigint, wh bigint)
         on conflict (account_id, meter_id, at) do update set wh = excluded.wh`,
        [accountId, JSON.stringify(offGrid.map((m) => ({ meter_id: m.meterId, at: m.at, wh: m.wh })))],
      );
    }
  }

  async page(accountId: string, meterId: string, from: number, to: number, limit: number, offset: number): Promise<{ items: StoredPoint[]; total: number }> {
    const rows = await this.em.execute<{ at: string | null; wh: string | null; total: string }[]>(
      `with p as (
         select at, wh from (${POINTS} and d.account_id = ? and d.meter_id = ?
           and d.day between (to_timestamp(? / 1000.0) at time zone 'UTC')::date and (to_timestamp(? / 1000.0) at time zone 'UTC')::date) g
         union all
         select extract(epoch from at) * 1000, wh from meter_readings where account_id = ? and meter_id = ? and at >= to_timestamp(? / 1000.0) and at < to_timestamp(? / 1000.0)
       ), inside as (select * from p where at >= ? and at < ?)
       select page.at, page.wh, c.total from (select count(*) as total from inside) c
       left join lateral (select * from inside order by at limit ? offset ?) page on true`,
      [accountId, meterId, from, to, accountId, meterId, from, to, from, to, limit, offset],
    );
    const items = rows.filter((r) => r.at !== null).map((r) => ({ at: Number(r.at), wh: Number(r.wh) }));
    return { items, total: Number(rows[0]?.total ?? 0) };
  }
}
