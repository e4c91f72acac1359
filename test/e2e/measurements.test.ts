import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { create, fixtures } from '../support/fixtures.js';

const QH = 15 * 60 * 1000;
const iso = (ms: number) => new Date(ms).toISOString();
/** `count` consecutive quarter hours from `from`, each with `value(i)` kWh. */
const series = (meterId: string, from: string, count: number, value: (i: number) => number) =>
  Array.from({ length: count }, (_, i) => ({ meterId, timestamp: iso(Date.parse(from) + i * QH), value: value(i) }));

describe('measurements', () => {
  let app: TestApp;
  let a: SignedUp;
  let b: SignedUp;
  let site: Record<string, any>;
  let load: Record<string, any>;
  let register: Record<string, any>;
  let sparse: Record<string, any>;

  const total = async (meterId: string, from = '2024-01-01T00:00:00.000Z', to = '2026-11-01T00:00:00.000Z') =>
    (await a.api.get(`/v1/measurements?meterId=${meterId}&startDateTime=${from}&endDateTime=${to}&limit=1`)).body.total;

  beforeAll(async () => {
    app = await startTestApp();
    a = await app.signUp('A');
    b = await app.signUp('B');
    site = await fixtures.site(a.api);
    load = await fixtures.meter(a.api, site.id, { measuring: 'load_profile_accurate', startDate: '2024-01-01T00:00:00.000Z' });
    register = await fixtures.meter(a.api, site.id, { measuring: 'readings_accurate', direction: 'producer' });
    sparse = await fixtures.meter(a.api, site.id, { measuring: 'readings_inaccurate' });
  });
  afterAll(() => app.close());

  it('stores a day idempotently and counts inserted, updated and unchanged values', async () => {
    const day = series(load.id, '2026-02-01T00:00:00.000Z', 96, (i) => i / 4);
    expect((await a.api.post('/v1/measurements', { measurements: day })).body).toEqual({ inserted: 96, updated: 0, unchanged: 0 });
    expect((await a.api.post('/v1/measurements', { measurements: day })).body).toEqual({ inserted: 0, updated: 0, unchanged: 96 });
    const corrected = day.map((m, i) => (i === 10 ? { ...m, value: 99.999 } : m));
    const response = await a.api.post('/v1/measurements', { measurements: [...corrected, corrected[0]] });
    expect([response.status, response.body]).toEqual([201, { inserted: 0, updated: 1, unchanged: 95 }]);
    const page = await a.api.get(`/v1/measurements?meterId=${load.id}&startDateTime=2026-02-01T02:00:00.000Z&endDateTime=2026-02-01T03:00:00.000Z`);
    expect(page.body).toEqual({
      total: 4,
      data: [
        { meterId: load.id, timestamp: '2026-02-01T02:00:00.000Z', value: 2, obis: '1.29.0' },
        { meterId: load.id, timestamp: '2026-02-01T02:15:00.000Z', value: 2.25, obis: '1.29.0' },
        { meterId: load.id, timestamp: '2026-02-01T02:30:00.000Z', value: 99.999, obis: '1.29.0' },
        { meterId: load.id, timestamp: '2026-02-01T02:45:00.000Z', value: 2.75, obis: '1.29.0' },
      ],
    });
    const beyond = await a.api.get(`/v1/measurements?meterId=${load.id}&startDateTime=2026-02-01T00:00:00.000Z&endDateTime=2026-02-02T00:00:00.000Z&offset=500`);
    expect(beyond.body).toEqual({ data: [], total: 96 });
  });

  it('rejects a whole upload listing every invalid item by index and code, and stores nothing', async () => {
    const virtualMpo = await create(a.api, '/v1/mpos', { channel: 'pseudo', provider: 'virtual', name: 'V' });
    const virtual = await create(a.api, '/v1/meters', {
      siteId: site.id,
      mpoId: virtualMpo.id,
      direction: 'consumer',
      identifier: 'V-1',
      measuring: 'load_profile_accurate',
      startDate: '2026-01-01T00:00:00.000Z',
      formula: [{ type: 'meter', meterId: load.id }],
    });
    const foreign = await fixtures.meter(b.api, (await fixtures.site(b.api)).id);
    const good = { meterId: load.id, timestamp: '2026-03-01T00:00:00.000Z', value: 1 };
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ ...good, meterId: foreign.id }, 'meterId', 'reference_not_found'],
      [{ ...good, meterId: '6f1c0c5e-0000-4000-8000-000000000000' }, 'meterId', 'reference_not_found'],
      [{ ...good, meterId: virtual.id }, 'meterId', 'virtual_meter'],
      [{ ...good, timestamp: '2026-03-01T00:07:00.000Z' }, 'timestamp', 'off_grid'],
      [{ ...good, timestamp: '2023-12-31T23:45:00.000Z' }, 'timestamp', 'before_meter_start'],
      [{ ...good, timestamp: '2099-01-01T00:00:00.000Z' }, 'timestamp', 'in_the_future'],
      [{ ...good, timestamp: '2026-03-01T00:00:00Z' }, 'timestamp', 'invalid_date_time'],
      [{ ...good, value: -1 }, 'value', 'negative_value'],
      [{ ...good, value: 1.0005 }, 'value', 'too_many_decimals'],
      [{ ...good, value: 1e15 }, 'value', 'out_of_range'],
      [{ ...good, value: '1' }, 'value', 'invalid_type'],
      [{ ...good, obis: '1.8.0' }, 'obis', 'obis_mismatch'],
      [{ ...good, interpolated: true }, 'interpolated', 'field_removed'],
    ];
    const before = await total(load.id);
    const response = await a.api.post('/v1/measurements', { measurements: [good, ...cases.map(([item]) => item)] });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { path: string; code: string }) => [e.path, e.code])).toEqual(
      cases.map(([, field, code], index) => [`measurements[${index + 1}].${field}`, code]),
    );
    expect(await total(load.id)).toBe(before);
    const duplicate = await a.api.post('/v1/measurements', { measurements: [good, { ...good, value: 2 }] });
    expect(duplicate.body.errors).toEqual([{ path: 'measurements[1].value', code: 'conflicting_duplicate', message: expect.any(String) }]);
    expect((await a.api.post('/v1/measurements', { measurements: [], interpolated: false })).body.errors.map((e: { code: string }) => e.code)).toEqual([
      'field_removed',
      'too_small',
    ]);
  });

  it('keeps register readings increasing, against stored readings too, and derives interval energy from them', async () => {
    const readings = series(register.id, '2026-04-01T00:00:00.000Z', 9, (i) => 1000 + i * 0.5);
    expect((await a.api.post('/v1/measurements', { measurements: readings })).body.inserted).toBe(9);
    const lower = await a.api.post('/v1/measurements', { measurements: [{ meterId: register.id, timestamp: '2026-04-01T02:15:00.000Z', value: 1003 }] });
    expect(lower.body.errors).toEqual([{ path: 'measurements[0].value', code: 'reading_decreases', message: expect.any(String) }]);
    const tooHigh = await a.api.post('/v1/measurements', { measurements: [{ meterId: register.id, timestamp: '2026-04-01T00:30:00.000Z', value: 1002 }] });
    expect(tooHigh.body.errors[0].code).toBe('reading_decreases');
    expect(await total(register.id)).toBe(9);
    const hourly = await a.api.get(`/v1/aggregated-measurements?meterId=${register.id}&startDateTime=2026-03-31T22:00:00.000Z&endDateTime=2026-04-01T02:00:00.000Z&interval=PT1H`);
    expect(hourly.body.data.map((bucket: { value: number; complete: boolean }) => [bucket.value, bucket.complete])).toEqual([
      [0, false],
      [0, false],
      [2, true],
      [2, true],
    ]);
  });

  it('interpolates occasional readings at bucket boundaries within 48 hours', async () => {
    const readings = [
      { meterId: sparse.id, timestamp: '2026-04-30T10:00:00.000Z', value: 100 },
      { meterId: sparse.id, timestamp: '2026-05-01T10:00:00.000Z', value: 124 },
      { meterId: sparse.id, timestamp: '2026-05-31T12:34:56.789Z', value: 844 },
    ];
    expect((await a.api.post('/v1/measurements', { measurements: readings })).body.inserted).toBe(3);
    const monthly = await a.api.get(`/v1/aggregated-measurements?meterId=${sparse.id}&startDateTime=2026-04-30T22:00:00.000Z&endDateTime=2026-06-30T22:00:00.000Z&interval=P1M`);
    expect(monthly.body.data).toEqual([
      { meterId: sparse.id, startDateTime: '2026-04-30T22:00:00.000Z', endDateTime: '2026-05-31T22:00:00.000Z', value: 0, complete: false },
      { meterId: sparse.id, startDateTime: '2026-05-31T22:00:00.000Z', endDateTime: '2026-06-30T22:00:00.000Z', value: 0, complete: false },
    ]);
    await a.api.post('/v1/measurements', { measurements: [{ meterId: sparse.id, timestamp: '2026-06-01T12:34:56.789Z', value: 868 }] });
    const may = await a.api.get(`/v1/aggregated-measurements?meterId=${sparse.id}&startDateTime=2026-04-30T22:00:00.000Z&endDateTime=2026-05-31T22:00:00.000Z&interval=P1M`);
    // 22:00 UTC lies 12 h after the first reading (+12 kWh) and 14:34:56.789 before the one on June 1st.
    expect(may.body.data[0]).toMatchObject({ complete: true });
    expect(may.body.data[0].value).toBeCloseTo(844 + (24 * (22 - 12.582441)) / 24 - 112, 0);
  });

  it('buckets Berlin DST days into 92 and 100 quarter hours', async () => {
    await a.api.post('/v1/measurements', { measurements: series(load.id, '2026-03-28T23:00:00.000Z', 92, () => 0.25) });
    await a.api.post('/v1/measurements', { measurements: series(load.id, '2026-10-24T22:00:00.000Z', 100, () => 0.25) });
    const spring = await a.api.get(`/v1/aggregated-measurements?meterId=${load.id}&startDateTime=2026-03-28T23:00:00.000Z&endDateTime=2026-03-29T22:00:00.000Z&interval=P1D`);
    expect(spring.body.data).toEqual([{ meterId: load.id, startDateTime: '2026-03-28T23:00:00.000Z', endDateTime: '2026-03-29T22:00:00.000Z', value: 23, complete: true }]);
    const autumn = await a.api.get(`/v1/aggregated-measurements?meterId=${load.id}&startDateTime=2026-10-24T22:00:00.000Z&endDateTime=2026-10-25T23:00:00.000Z&interval=PT15M`);
    expect(autumn.body.total).toBe(100);
    const autumnDay = await a.api.get(`/v1/aggregated-measurements?meterId=${load.id}&startDateTime=2026-10-24T22:00:00.000Z&endDateTime=2026-10-25T23:00:00.000Z&interval=P1D`);
    expect(autumnDay.body.data[0]).toMatchObject({ value: 25, complete: true });
    const year = await a.api.get(`/v1/aggregated-measurements?meterId=${load.id}&startDateTime=2025-12-31T23:00:00.000Z&endDateTime=2026-12-31T23:00:00.000Z&interval=P1M`);
    expect(year.body.total).toBe(12);
    expect(year.body.data[2]).toMatchObject({ startDateTime: '2026-02-28T23:00:00.000Z', endDateTime: '2026-03-31T22:00:00.000Z', value: 23, complete: false });
  });

  it('validates aggregation parameters', async () => {
    const base = `/v1/aggregated-measurements?meterId=${load.id}`;
    const cases: Array<[string, string, string]> = [
      ['&startDateTime=2026-01-01T00:00:00.000Z&endDateTime=2026-01-01T23:00:00.000Z&interval=P1D', 'startDateTime', 'range_not_aligned'],
      ['&startDateTime=2026-01-01T23:00:00.000Z&endDateTime=2026-01-01T23:00:00.000Z&interval=P1D', 'endDateTime', 'end_not_after_start'],
      ['&startDateTime=2025-12-31T23:00:00.000Z&endDateTime=2026-01-01T23:00:00.000Z&interval=P1W', 'interval', 'invalid_value'],
      ['&startDateTime=2020-01-01T00:00:00.000Z&endDateTime=2026-01-01T00:00:00.000Z&interval=PT15M', 'endDateTime', 'range_too_large'],
      ['&startDateTime=2026-01-01T00:00:00.000Z&interval=PT15M', 'endDateTime', 'required'],
    ];
    for (const [query, path, code] of cases) {
      const response = await a.api.get(`${base}${query}`);
      expect([response.status, response.body.errors?.map((e: { path: string; code: string }) => [e.path, e.code])], query).toEqual([400, [[path, code]]]);
    }
    expect((await b.api.get(`${base}&startDateTime=2026-01-01T00:00:00.000Z&endDateTime=2026-01-01T01:00:00.000Z&interval=PT15M`)).status).toBe(404);
  });

  it('takes text/csv uploads', async () => {
    const csv = `meterId,timestamp,value\n${load.id},2026-05-01T00:00:00.000Z,1.5\n${load.id},2026-05-01T00:15:00.000Z,2\n`;
    const response = await a.api.post('/v1/measurements', csv, { 'content-type': 'text/csv' });
    expect([response.status, response.body]).toEqual([201, { inserted: 2, updated: 0, unchanged: 0 }]);
    const bad = await a.api.post('/v1/measurements', `meter,time,kwh\n${load.id},2026-05-01T00:00:00.000Z,1`, { 'content-type': 'text/csv' });
    expect(bad.body.errors[0].code).toBe('invalid_csv_header');
    const broken = await a.api.post('/v1/measurements', `meterId,timestamp,value\n${load.id},2026-05-01T00:30:00.000Z,abc`, { 'content-type': 'text/csv' });
    expect(broken.body.errors).toEqual([{ path: 'measurements[0].value', code: 'invalid_type', message: expect.any(String) }]);
  });

  it('reads text/csv as RFC 4180 and refuses extra cells, removed columns and broken quoting, storing nothing', async () => {
    const csv = (text: string) => a.api.post('/v1/measurements', text, { 'content-type': 'text/csv' });
    const day = ['2026-05-03T00:00:00.000Z', '2026-05-04T00:00:00.000Z'] as const;
    const quoted = await csv(`"meterId","timestamp","value"\r\n"${load.id}","2026-05-03T00:00:00.000Z","1.25"\r\n\r\n "${load.id}" , 2026-05-03T00:15:00.000Z , 2 \r\n`);
    expect([quoted.status, quoted.body]).toEqual([201, { inserted: 2, updated: 0, unchanged: 0 }]);
    const stored = await a.api.get(`/v1/measurements?meterId=${load.id}&startDateTime=${day[0]}&endDateTime=${day[1]}`);
    expect(stored.body.data.map((m: { value: number }) => m.value)).toEqual([1.25, 2]);

    const before = await total(load.id, day[0], day[1]);
    const row = (quarter: number, value = '1') => `${load.id},${new Date(Date.parse(day[0]) + (2 + quarter) * QH).toISOString()},${value}`;
    const extra = await csv(`meterId,timestamp,value\n${row(0)}\n${row(1)},1.8.0\n\n${row(2)},x,y\n${row(3)}\n`);
    expect([extra.status, extra.body.code, extra.body.errors]).toEqual([
      400,
      'validation_failed',
      [
        { path: 'csv[2]', code: 'invalid_csv_row', message: 'The row has 4 cells; the header has 3.' },
        { path: 'csv[3]', code: 'invalid_csv_row', message: 'The row has 5 cells; the header has 3.' },
      ],
    ]);

    const json = await a.api.post('/v1/measurements', { measurements: [{ meterId: load.id, timestamp: day[0], value: 1, interpolated: false }] });
    const removed = await csv(`meterId,timestamp,value,interpolated\n${row(0)},false\n`);
    expect([removed.status, removed.body.code, removed.body.errors]).toEqual([
      400,
      'validation_failed',
      [{ path: 'csv[0].interpolated', code: 'field_removed', message: json.body.errors[0].message }],
    ]);
    expect(json.body.errors[0]).toMatchObject({ code: 'field_removed', message: expect.stringContaining('send measured values only') });

    const unterminated = await csv(`meterId,timestamp,value\n${row(0)}\n"${load.id},${day[0]},1\n${row(1)}\n`);
    expect([unterminated.status, unterminated.body.code, unterminated.body.errors]).toEqual([
      400,
      'validation_failed',
      [{ path: 'csv[2]', code: 'invalid_csv', message: expect.stringContaining('Quote Not Closed') }],
    ]);
    expect(await total(load.id, day[0], day[1])).toBe(before);
  });

  it('takes 50,000 values in one request and answers 413 beyond', async () => {
    const values = series(load.id, '2024-06-01T00:00:00.000Z', 50_000, (i) => (i % 7) / 10);
    const big = await a.api.post('/v1/measurements', { measurements: values });
    expect([big.status, big.body]).toEqual([201, { inserted: 50_000, updated: 0, unchanged: 0 }]);
    const tooMany = await a.api.post('/v1/measurements', { measurements: [...values, values[0]] });
    expect([tooMany.status, tooMany.body.code]).toEqual([413, 'too_many_measurements']);
    const tooLarge = await a.api.post('/v1/measurements', `{"measurements":[${'1,'.repeat(5_000_000)}1]}`, { 'content-type': 'application/json' });
    expect([tooLarge.status, tooLarge.body.code]).toEqual([413, 'payload_too_large']);
  });

  it('serves the same series over GraphQL', async () => {
    const response = await a.api.graphql(
      `query($id: ID!) { meter(id: $id) {
        measurements(startDateTime: "2026-02-01T00:00:00.000Z", endDateTime: "2026-02-01T00:30:00.000Z") { total data { timestamp value obis } }
        aggregatedMeasurements(startDateTime: "2026-01-31T23:00:00.000Z", endDateTime: "2026-02-01T23:00:00.000Z", interval: P1D) { data { value complete } }
      } }`,
      { id: load.id },
    );
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.meter.measurements).toEqual({ total: 2, data: [{ timestamp: '2026-02-01T00:00:00.000Z', value: 0, obis: '1.29.0' }, { timestamp: '2026-02-01T00:15:00.000Z', value: 0.25, obis: '1.29.0' }] });
    expect(response.body.data.meter.aggregatedMeasurements.data).toEqual([{ value: expect.any(Number), complete: false }]);
  });
});
