import type { EnergySeries } from '../domain/measurements/aggregation.js';
import type { IngestMeter, Measurement } from '../domain/measurements/ingest.js';

export interface StoredPoint {
  at: number;
  wh: number;
}

export interface SeriesRange {
  meterId: string;
  from: number;
  /** Inclusive. */
  to: number;
}

export interface MeasurementRepository {
  /** What checking an upload needs of those of `ids` that are meters of the account. */
  ingestMeters(accountId: string, ids: readonly string[]): Promise<IngestMeter[]>;
  /** Holds the writers of these meters off until the transaction ends (sorted, so no deadlocks). */
  lockMeters(accountId: string, meterIds: readonly string[]): Promise<void>;
  /**
   * Holds the writers of these meters off until the transaction ends, beside other holders (a
   * bill run's drafts): what is read of them stays current until then.
   */
  holdMeters(accountId: string, meterIds: readonly string[]): Promise<void>;
  /** Stored values per meter within each range, sorted by time. */
  load(accountId: string, ranges: readonly SeriesRange[]): Promise<Map<string, StoredPoint[]>>;
  /**
   * The stored quarter-hour values (day rows, not off-grid readings) of each meter as a series of
   * the consecutive quarter hours of its range (`from` the first, `to` the last): a quarter hour
   * without a value is incomplete. Every meter asked for has one.
   */
  quarterHours(accountId: string, ranges: readonly SeriesRange[]): Promise<Map<string, EnergySeries>>;
  /** The last stored value before and the first after an instant, per meter. */
  neighbours(accountId: string, around: readonly { meterId: string; before: number; after: number }[]): Promise<Map<string, StoredPoint[]>>;
  /** Set-based upsert: quarter-hour values into day rows, off-grid readings into their table. */
  save(accountId: string, onGrid: readonly Measurement[], offGrid: readonly Measurement[]): Promise<void>;
  /** One page of a meter's values in [from, to), by time. */
  page(accountId: string, meterId: string, from: number, to: number, limit: number, offset: number): Promise<{ items: StoredPoint[]; total: number }>;
}
