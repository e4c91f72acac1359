import { defineEntity, p } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EnergySeries } from '../../domain/measurements/aggregation.js';
import type { IngestMeter, Measurement } from '../../domain/measurements/ingest.js';
import { obisOf } from '../../domain/measurements/obis.js';
import { isVirtual, type Meter } from '../../domain/meters/meter.js';
import { dayOf, dayRows, instantOf, MeasurementDay, SparseReading } from '../../domain/measurements/measurement-day.js';
import { QUARTER_HOUR_MS } from '../../domain/time/buckets.js';
import type { MeasurementRepository, SeriesRange, StoredPoint } from '../../measurements/measurements.repository.js';
import { boundQuery } from '../bound-query.js';
import { appendDayValues, putDayValues } from './day-values.js';
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

/** The advisory lock keys under which meters are written (`lockMeters`) and read (`holdMeters`). */
const meterLockKeys = (accountId: string, meterIds: readonly string[]) => [...new Set(meterIds)].map((id) => `${accountId}/${id}`);

export class MikroMeasurementRepository implements MeasurementRepository {
  constructor(private readonly em: EntityManager) {}

  /** Plain rows, not meter entities: hydrating and tracking a hundred entities per upload cost more than the query. */
  async ingestMeters(accountId: string, ids: readonly string[]): Promise<IngestMeter[]> {
    if (ids.length === 0) return [];
    const rows = await boundQuery<Pick<Meter, 'id' | 'direction' | 'measuring' | 'formula'> & { start_at: string }>(
      this.em,
      'select id, direction, measuring, extract(epoch from start_date) * 1000 as start_at, formula from meters where account_id = ? and id = any(?::uuid[])',
      [accountId, ids],
    );
    return rows.map((row) => ({ id: row.id, measuring: row.measuring, obis: obisOf(row), startDate: Number(row.start_at), virtual: isVirtual(row) }));
  }

  async lockMeters(accountId: string, meterIds: readonly string[]): Promise<void> {
    await boundQuery(this.em, 'select pg_advisory_xact_lock(hashtextextended(k, 0)) from unnest(?::text[]) as k order by k', [meterLockKeys(accountId, meterIds)]);
  }

  async holdMeters(accountId: string, meterIds: readonly string[]): Promise<void> {
    if (meterIds.length === 0) return;
    await boundQuery(this.em, 'select pg_advisory_xact_lock_shared(hashtextextended(k, 0)) from unnest(?::text[]) as k order by k', [meterLockKeys(accountId, meterIds)]);
  }

  async load(accountId: string, ranges: readonly SeriesRange[]): Promise<Map<string, StoredPoint[]>> {
    if (ranges.length === 0) return new Map();
    // One statement for both tables; day rows come back as array text and are unpacked here: far cheaper than a row per value.
    const rows = await boundQuery<{ meter_id: string; day: string | null; values: string | null; at: string | null; wh: string | null }>(
      this.em,
      `with r as (select * from unnest(?::uuid[], ?::date[], ?::date[], ?::bigint[], ?::bigint[]) as r(meter_id, from_day, to_day, from_at, to_at))
       select d.meter_id, d.day::text as day, d."values"::text as "values", null as at, null as wh
       from measurement_days d join r on d.meter_id = r.meter_id and d.day between r.from_day and r.to_day
       where d.account_id = ?
       union all
       select m.meter_id, null, null, extract(epoch from m.at) * 1000, m.wh
       from meter_readings m join r on m.meter_id = r.meter_id
       where m.account_id = ? and m.at between to_timestamp(r.from_at / 1000.0) and to_timestamp(r.to_at / 1000.0)`,
      [
        ranges.map((r) => r.meterId),
        ranges.map((r) => dayOf(r.from)),
        ranges.map((r) => dayOf(r.to)),
        ranges.map((r) => r.from),
        ranges.map((r) => r.to),
        accountId,
        accountId,
      ],
    );
    const bounds = new Map(ranges.map((r) => [r.meterId, r]));
    const series = new Map<string, StoredPoint[]>();
    for (const { meter_id: meterId, day, values, at, wh } of rows) {
      let points = series.get(meterId);
      if (!points) series.set(meterId, (points = []));
      if (day === null || values === null) {
        points.push({ at: Number(at), wh: Number(wh) });
        continue;
      }
      const { from, to } = bounds.get(meterId)!;
      appendDayValues(values, instantOf(day, 0), from, to, points);
    }
    for (const points of series.values()) points.sort((x, y) => x.at - y.at);
    return series;
  }

  /** Day rows only, each unpacked straight into its meter's arrays: no object per quarter hour. */
  async quarterHours(accountId: string, ranges: readonly SeriesRange[]): Promise<Map<string, EnergySeries>> {
    const firsts = new Map(ranges.map((r) => [r.meterId, r.from]));
    const series = new Map(
      ranges.map((r) => {
        const count = Math.floor((r.to - r.from) / QUARTER_HOUR_MS) + 1;
        return [r.meterId, { wh: new Float64Array(count), complete: new Uint8Array(count) }];
      }),
    );
    if (ranges.length === 0) return series;
    const rows = await boundQuery<{ meter_id: string; day: string; values: string }>(
      this.em,
      `with r as (select * from unnest(?::uuid[], ?::date[], ?::date[]) as r(meter_id, from_day, to_day))
       select d.meter_id, d.day::text as day, d."values"::text as "values"
       from measurement_days d join r on d.meter_id = r.meter_id and d.day between r.from_day and r.to_day
       where d.account_id = ?`,
      [ranges.map((r) => r.meterId), ranges.map((r) => dayOf(r.from)), ranges.map((r) => dayOf(r.to)), accountId],
    );
    for (const { meter_id: meterId, day, values } of rows) putDayValues(values, instantOf(day, 0), firsts.get(meterId)!, series.get(meterId)!);
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
      const rows = dayRows(onGrid);
      // New slots win, the others keep what was stored: one statement, whatever the size. Arrays
      // as parameters (a day's values as array text) cost PostgreSQL far less to read than JSON.
      await boundQuery(
        this.em,
        `insert into measurement_days (account_id, meter_id, day, "values")
         select ?, r.meter_id, r.day, r."values"::bigint[] from unnest(?::uuid[], ?::date[], ?::text[]) as r(meter_id, day, "values")
         on conflict (account_id, meter_id, day) do update set "values" = (
           select array_agg(coalesce(n, o) order by i) from unnest(excluded."values", measurement_days."values") with ordinality as t(n, o, i))`,
        [accountId, rows.map((r) => r.meterId), rows.map((r) => r.day), rows.map((r) => `{${r.values.map((wh) => wh ?? 'NULL').join(',')}}`)],
      );
    }
    if (offGrid.length > 0) {
      await boundQuery(
        this.em,
        `insert into meter_readings (account_id, meter_id, at, wh)
         select ?, r.meter_id, to_timestamp(r.at / 1000.0), r.wh from unnest(?::uuid[], ?::bigint[], ?::bigint[]) as r(meter_id, at, wh)
         on conflict (account_id, meter_id, at) do update set wh = excluded.wh`,
        [accountId, offGrid.map((m) => m.meterId), offGrid.map((m) => m.at), offGrid.map((m) => m.wh)],
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
