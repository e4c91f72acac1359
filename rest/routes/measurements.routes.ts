import { z } from 'zod';
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
import type { RouteSpec } from '../route.js';

export function measurementRoutes(measurements: MeasurementsService): RouteSpec[] {
  return [
    {
      method: 'post',
      path: '/v1/measurements',
      operationId: 'ingestMeasurements',
      summary: 'Upload meter values (JSON or text/csv, 1 to 50,000 per request, all or nothing, idempotent)',
      tag: 'Measurements',
      body: ingestCommand,
      csv: measurementsFromCsv,
      bodyLimit: '8mb',
      response: { status: 201, description: 'How many values were new, corrected or already stored', schema: ingestResultView },
      handle: async ({ actor, body }) => ({ status: 201, body: await measurements.ingest(actor, body) }),
    },
    {
      method: 'get',
      path: '/v1/measurements',
      operationId: 'listMeasurements',
      summary: "A page of a meter's values as submitted",
      tag: 'Measurements',
      query: listMeasurementsQuery,
      response: { status: 200, description: 'Values by time', schema: z.object({ data: z.array(measurementView), total: z.number().int() }) },
      errors: [404],
      handle: async ({ actor, query }) => ({ status: 200, body: await measurements.list(actor, query) }),
    },
    {
      method: 'get',
      path: '/v1/aggregated-measurements',
      operationId: 'aggregateMeasurements',
      summary: "A meter's energy per bucket, aligned to the account timezone",
      tag: 'Measurements',
      query: aggregateMeasurementsQuery,
      response: { status: 200, description: 'Energy per bucket', schema: z.object({ data: z.array(aggregatedMeasurementView), total: z.number().int() }) },
      errors: [404],
      handle: async ({ actor, query }) => ({ status: 200, body: await measurements.aggregate(actor, query) }),
    },
  ];
}
