import type { AccountRepository } from '../accounts/accounts.repository.js';
import type { Actor } from '../auth/actor.js';
import type { Clock } from '../clock.js';
import type { BucketEnergy } from '../domain/measurements/aggregation.js';
import { bucketEnergy, loadWindow } from '../domain/measurements/bucket-energy.js';
import { whToKwh } from '../domain/measurements/energy.js';
import { checkMeasurements, compareWithStored, decreasingReadings, INTERPOLATED_REMOVED, type Measurement } from '../domain/measurements/ingest.js';
import { isRegister, obisOf, onGrid } from '../domain/measurements/obis.js';
import type { Meter } from '../domain/meters/meter.js';
import type { Bucket } from '../domain/time/buckets.js';
import { queryBuckets } from '../time-series.js';
import { NotFoundError, TooLargeError, ValidationError } from '../errors.js';
import { isUuid } from '../domain/ids.js';
import type { MeterRepository } from '../meters/meters.repository.js';
import type { ListResult } from '../resource.service.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { parseInput } from '../validation.js';
import {
  aggregateMeasurementsQuery,
  listMeasurementsQuery,
  MAX_ITEMS_PER_UPLOAD,
  type AggregatedMeasurementView,
  type IngestResult,
  type MeasurementView,
} from './measurements.commands.js';
import type { MeasurementRepository } from './measurements.repository.js';


/**
 * What ingest tells the computations that depend on meter data (balancing, virtual meters): which
 * meters changed over which span, inside the ingest transaction, and after commit which sites to
 * work on. Balancing implements it; measurements do not know balancing.
 */
export interface MeasurementChanges {
  /** In the ingest transaction; answers the sites that now have work. */
  markChanged(accountId: string, changes: readonly { meterId: string; from: number; to: number }[]): Promise<string[]>;
  /** After commit. */
  schedule(accountId: string, siteIds: readonly string[]): Promise<void>;
}

export interface MeasurementDependencies {
  changes: MeasurementChanges;
  measurements: MeasurementRepository;
  meters: MeterRepository;
  accounts: AccountRepository;
  uow: UnitOfWork;
  clock: Clock;
}

function uploadItems(input: unknown): unknown[] {
  const body = input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : null;
  const errors = Object.keys(body ?? {})
    .filter((key) => key !== 'measurements')
    .map((key) =>
      key === 'interpolated'
        ? { path: key, code: 'field_removed', message: INTERPOLATED_REMOVED }
        : { path: key, code: 'unknown_field', message: `Unknown field "${key}".` },
    );
  const items = body?.measurements;
  if (!Array.isArray(items)) errors.push({ path: 'measurements', code: items === undefined ? 'required' : 'invalid_type', message: 'Expected an array of measurements.' });
  else if (items.length === 0) errors.push({ path: 'measurements', code: 'too_small', message: 'Send at least one measurement.' });
  if (errors.length > 0) throw new ValidationError(errors);
  if ((items as unknown[]).length > MAX_ITEMS_PER_UPLOAD) {
    throw new TooLargeError('too_many_measurements', `At most ${MAX_ITEMS_PER_UPLOAD} measurements per request; split the upload.`);
  }
  return items as unknown[];
}

/** The distinct meter ids of an upload, checked once each rather than once per item. */
function uploadedMeterIds(items: readonly unknown[]): string[] {
  const ids = new Set<unknown>();
  for (const item of items) ids.add((item as { meterId?: unknown } | null)?.meterId);
  return [...ids].filter(isUuid);
}

function groupByMeter(measurements: readonly Measurement[]): Map<string, Measurement[]> {
  const groups = new Map<string, Measurement[]>();
  for (const m of measurements) {
    const group = groups.get(m.meterId);
    if (group) group.push(m);
    else groups.set(m.meterId, [m]);
  }
  return groups;
}

function spanOf(group: readonly Measurement[]): { from: number; to: number } {
  return { from: group.reduce((min, m) => Math.min(min, m.at), Infinity), to: group.reduce((max, m) => Math.max(max, m.at), -Infinity) };
}

/** Meter data: all-or-nothing idempotent ingest, and the time-series reads. */
export class MeasurementsService {
  constructor(private readonly deps: MeasurementDependencies) {}

  async ingest(actor: Actor, input: unknown): Promise<IngestResult> {
    const items = uploadItems(input);
    const { measurements, uow, clock } = this.deps;
    const known = new Map((await measurements.ingestMeters(actor.accountId, uploadedMeterIds(items))).map((m) => [m.id, m]));
    const checked = checkMeasurements(items, known, clock.now().getTime());
    if (checked.errors.length > 0) throw new ValidationError(checked.errors);
    const { result, sites } = await uow.transactional(async () => {
      const byMeter = groupByMeter(checked.measurements);
      await measurements.lockMeters(actor.accountId, [...byMeter.keys()]);
      const bounds = [...byMeter].map(([meterId, group]) => ({ meterId, ...spanOf(group) }));
      const stored = await measurements.load(actor.accountId, bounds);
      const registers = bounds.filter((b) => isRegister(known.get(b.meterId)!.measuring));
      const around = await measurements.neighbours(actor.accountId, registers.map((b) => ({ meterId: b.meterId, before: b.from, after: b.to })));
      const result: IngestResult = { inserted: 0, updated: 0, unchanged: 0 };
      const grid: Measurement[] = [];
      const offGrid: Measurement[] = [];
      const decreasing: Measurement[] = [];
      const spans: { meterId: string; from: number; to: number }[] = [];
      for (const [meterId, group] of byMeter) {
        const { measuring } = known.get(meterId)!;
        const points = stored.get(meterId) ?? [];
        const { changed, inserted, updated, unchanged } = compareWithStored(group, points);
        result.inserted += inserted;
        result.updated += updated;
        result.unchanged += unchanged;
        if (changed.length > 0) spans.push({ meterId, ...spanOf(changed) });
        const target = onGrid(measuring) ? grid : offGrid;
        for (const m of changed) target.push(m);
        if (isRegister(measuring)) {
          for (const m of decreasingReadings([...points, ...(around.get(meterId) ?? [])], group)) decreasing.push(m);
        }
      }
      if (decreasing.length > 0) {
        throw new ValidationError(
          decreasing.map((m) => ({ path: `measurements[${m.index}].value`, code: 'reading_decreases', message: 'A register reading is lower than the one before it.' })),
        );
      }
      await measurements.save(actor.accountId, grid, offGrid);
      return { result, sites: await this.deps.changes.markChanged(actor.accountId, spans) };
    });
    await this.deps.changes.schedule(actor.accountId, sites);
    return result;
  }

  async list(actor: Actor, query: unknown): Promise<ListResult<MeasurementView>> {
    const { meterId, startDateTime, endDateTime, limit, offset } = parseInput(listMeasurementsQuery, query, { unknownCode: 'unknown_parameter' });
    const meter = await this.meter(actor, meterId);
    const obis = obisOf(meter);
    const page = await this.deps.measurements.page(actor.accountId, meterId, Date.parse(startDateTime), Date.parse(endDateTime), limit, offset);
    return { data: page.items.map((p) => ({ meterId, timestamp: new Date(p.at).toISOString(), value: whToKwh(p.wh), obis })), total: page.total };
  }

  async aggregate(actor: Actor, query: unknown): Promise<ListResult<AggregatedMeasurementView>> {
    const { meterId, startDateTime, endDateTime, interval } = parseInput(aggregateMeasurementsQuery, query, { unknownCode: 'unknown_parameter' });
    const meter = await this.meter(actor, meterId);
    const { timezone } = (await this.deps.accounts.findAccount(actor.accountId))!;
    const [start, end] = [Date.parse(startDateTime), Date.parse(endDateTime)];
    const buckets = queryBuckets(start, end, interval, timezone);
    const energy = await this.energy(actor, meter, buckets[0]!.start, buckets.at(-1)!.end, buckets);
    const data = energy.map((b) => ({
      meterId,
      startDateTime: new Date(b.start).toISOString(),
      endDateTime: new Date(b.end).toISOString(),
      value: whToKwh(b.wh),
      complete: b.complete,
    }));
    return { data, total: data.length };
  }

  private async energy(actor: Actor, meter: Meter, start: number, end: number, buckets: readonly Bucket[]): Promise<BucketEnergy[]> {
    const { from, to } = loadWindow(meter.measuring, start, end);
    const points = (await this.deps.measurements.load(actor.accountId, [{ meterId: meter.id, from, to }])).get(meter.id) ?? [];
    return bucketEnergy(meter.measuring, points, buckets);
  }

  private async meter(actor: Actor, meterId: string): Promise<Meter> {
    const [meter] = await this.deps.meters.findByIds(actor.accountId, [meterId]);
    if (!meter) throw new NotFoundError('meter', meterId);
    return meter;
  }
}
