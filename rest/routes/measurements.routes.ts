import {
  aggregatedMeasurementView,
  aggregateMeasurementsQuery,
  ingestCommand,
  ingestResultView,
  listMeasurementsQuery,
  measurementView,
} from '../../core/measurements/measurements.commands.js';
import type { MeasurementsService } from '../../core/measurements/measurements.service.js';
import { measurementsFromCsv } from '../csv.js';
import { listOf, type CsvBody, type RouteSpec } from '../route.js';

const measurementsCsv: CsvBody = {
  parse: measurementsFromCsv,
  description:
    'RFC 4180 CSV, one value per row after the header `meterId,timestamp,value` or `meterId,timestamp,value,obis`: ' +
    'the meter id, the UTC instant with milliseconds, the kWh with a dot as decimal separator (at most 3 decimals), and optionally the OBIS code. ' +
    'Blank lines are skipped; errors name rows as `csv[n]`, the header being `csv[0]`.',
  example: 'meterId,timestamp,value,obis\n0b3f6c1e-5d6a-4f0e-9a51-2f4b8e1c7d90,2026-01-01T00:00:00.000Z,0.25,1.29.0\n',
};

export function measurementRoutes(measurements: MeasurementsService): RouteSpec[] {
  return [
    {
      method: 'post',
      path: '/v1/measurements',
      operationId: 'ingestMeasurements',
      summary: 'Upload meter values (JSON or text/csv, 1 to 50,000 per request, all or nothing, idempotent)',
      description:
        'Stores every value or, when any is invalid, none (400 naming each invalid item). A value sent again is counted as unchanged, ' +
        'a different one for the same meter and time as updated; the sites of the meters whose values changed are balanced again.',
      tag: 'Measurements',
      body: ingestCommand,
      csv: measurementsCsv,
      bodyLimit: '8mb',
      response: { status: 201, description: 'How many values were new, corrected or already stored', schema: ingestResultView },
      handle: async ({ actor, body }) => ({ status: 201, body: await measurements.ingest(actor, body) }),
    },
    {
      method: 'get',
      path: '/v1/measurements',
      operationId: 'listMeasurements',
      summary: "A page of a meter's values as submitted",
      description: 'The values of `meterId` from `startDateTime` to `endDateTime`, by time, as they were uploaded. 404 when the meter is not in the account.',
      tag: 'Measurements',
      query: listMeasurementsQuery,
      response: { status: 200, description: 'Values by time', schema: listOf(measurementView) },
      errors: [404],
      handle: async ({ actor, query }) => ({ status: 200, body: await measurements.list(actor, query) }),
    },
    {
      method: 'get',
      path: '/v1/aggregated-measurements',
      operationId: 'aggregateMeasurements',
      summary: "A meter's energy per bucket, aligned to the account timezone",
      description:
        'The energy of `meterId` from `startDateTime` to `endDateTime` summed per bucket of `interval`; days, months and years begin at midnight in the account timezone. ' +
        '`complete` tells whether every quarter hour of a bucket is known. 404 when the meter is not in the account.',
      tag: 'Measurements',
      query: aggregateMeasurementsQuery,
      response: { status: 200, description: 'Energy per bucket', schema: listOf(aggregatedMeasurementView) },
      errors: [404],
      handle: async ({ actor, query }) => ({ status: 200, body: await measurements.aggregate(actor, query) }),
    },
  ];
}
