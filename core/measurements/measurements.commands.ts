import { z } from 'zod';
import { INTERVALS } from '../domain/time/buckets.js';
import { MAX_KWH } from '../domain/measurements/energy.js';
import { endAfter, utcInstant } from '../field-formats.js';
import { pageQuery } from '../pagination.js';

export const MAX_ITEMS_PER_UPLOAD = 50_000;

/** Documents the upload; checkMeasurements (core/domain/measurements/ingest.ts) validates it item by item. */
export const ingestCommand = z
  .object({
    measurements: z
      .array(
        z
          .object({
            meterId: z.uuid(),
            timestamp: utcInstant.describe('Interval start (interval meters) or reading time, UTC with milliseconds'),
            value: z.number().min(0).max(MAX_KWH).describe('kWh, at most 3 decimals'),
            obis: z.string().optional().describe("Checked against the meter's: 1.8.0 / 2.8.0 registers, 1.29.0 / 2.29.0 interval energy"),
          })
          .strict(),
      )
      .min(1)
      .max(MAX_ITEMS_PER_UPLOAD),
  })
  .strict()
  .meta({ id: 'IngestMeasurementsInput' });

export const ingestResultView = z
  .object({ inserted: z.number().int(), updated: z.number().int(), unchanged: z.number().int() })
  .meta({ id: 'IngestResult' });
export type IngestResult = z.output<typeof ingestResultView>;

const range = {
  meterId: z.uuid(),
  startDateTime: utcInstant,
  endDateTime: utcInstant,
};

const endAfterStart = endAfter('startDateTime', 'endDateTime');

export const listMeasurementsQuery = pageQuery.extend(range).strict().superRefine(endAfterStart);

export const aggregateMeasurementsQuery = z
  .object({ ...range, interval: z.enum(INTERVALS) })
  .strict()
  .superRefine(endAfterStart);

export const measurementView = z
  .object({ meterId: z.uuid(), timestamp: z.string().meta({ format: 'date-time' }), value: z.number(), obis: z.string() })
  .meta({ id: 'Measurement' });
export type MeasurementView = z.output<typeof measurementView>;

export const aggregatedMeasurementView = z.object({
  meterId: z.uuid(),
  startDateTime: z.string().meta({ format: 'date-time' }),
  endDateTime: z.string().meta({ format: 'date-time' }),
  value: z.number().describe('kWh'),
  complete: z.boolean().describe('Every quarter hour of the bucket is known'),
}).meta({ id: 'AggregatedMeasurement' });
export type AggregatedMeasurementView = z.output<typeof aggregatedMeasurementView>;
