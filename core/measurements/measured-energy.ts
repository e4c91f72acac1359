import { seriesEnergy, seriesOf, type BucketEnergy, type EnergySeries } from '../domain/measurements/aggregation.js';
import { bucketEnergy, energyIsStoredQuarterHours, loadWindow, measuresIntervals } from '../domain/measurements/bucket-energy.js';
import type { Meter } from '../domain/meters/meter.js';
import type { Bucket } from '../domain/time/buckets.js';
import type { MeasurementRepository, SeriesRange, StoredPoint } from './measurements.repository.js';

/** A meter and a span of time [start, end) whose energy is asked for. */
export interface MeterSpan {
  meter: Meter;
  start: number;
  end: number;
}

/** One range per meter covering every span asked for (the repository reads one range per meter). */
function rangesOf(spans: readonly MeterSpan[]): SeriesRange[] {
  const ranges = new Map<string, SeriesRange>();
  for (const { meter, start, end } of spans) {
    const { from, to } = loadWindow(meter.measuring, start, end);
    const known = ranges.get(meter.id);
    ranges.set(meter.id, known ? { meterId: meter.id, from: Math.min(known.from, from), to: Math.max(known.to, to) } : { meterId: meter.id, from, to });
  }
  return [...ranges.values()];
}

/**
 * What was read of meters over spans of time, with two statements however many meters: the
 * stored quarter hours of interval meters as series (a month of a meter is some 3,000 of them, no
 * object each), the stored points of register meters.
 */
export class MeasuredEnergy {
  private constructor(
    private readonly quarterHours: ReadonlyMap<string, EnergySeries>,
    /** Where each meter's series starts. */
    private readonly firsts: ReadonlyMap<string, number>,
    private readonly stored: ReadonlyMap<string, readonly StoredPoint[]>,
  ) {}

  static async read(measurements: MeasurementRepository, accountId: string, spans: readonly MeterSpan[]): Promise<MeasuredEnergy> {
    const intervals = rangesOf(spans.filter((span) => measuresIntervals(span.meter.measuring)));
    const registers = rangesOf(spans.filter((span) => !measuresIntervals(span.meter.measuring)));
    const series = await measurements.quarterHours(accountId, intervals);
    const points = await measurements.load(accountId, registers);
    return new MeasuredEnergy(series, new Map(intervals.map((r) => [r.meterId, r.from])), points);
  }

  /** The meter's energy per bucket (whole quarter hours within a span read) as the aggregated measurements compute it. */
  energy(meter: Meter, buckets: readonly Bucket[]): BucketEnergy[] {
    const series = this.quarterHours.get(meter.id);
    if (!series) return bucketEnergy(meter.measuring, this.points(meter.id), buckets);
    const first = this.firsts.get(meter.id)!;
    return buckets.map((bucket) => seriesEnergy(series, first, bucket));
  }

  /**
   * The meter's energy per bucket as arrays (what balancing reads): on the consecutive quarter hours
   * of a span read, the stored series itself.
   */
  series(meter: Meter, buckets: readonly Bucket[]): EnergySeries {
    const stored = this.quarterHours.get(meter.id);
    if (stored && energyIsStoredQuarterHours(meter.measuring, buckets) && this.firsts.get(meter.id) === buckets[0]!.start && stored.wh.length === buckets.length) return stored;
    return seriesOf(this.energy(meter, buckets));
  }

  /** The stored points of a register meter (none for an interval meter). */
  points(meterId: string): readonly StoredPoint[] {
    return this.stored.get(meterId) ?? [];
  }
}
