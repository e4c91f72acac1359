import { z } from 'zod';
import { FLOW_KINDS } from '../domain/balancing/site-balance.js';
import { INTERVALS } from '../domain/time/buckets.js';
import { endAfter, utcInstant } from '../field-formats.js';
import { pageQuery } from '../pagination.js';

export const BALANCING_QUEUE = 'balance-site';

export interface BalanceSiteJob {
  accountId: string;
  siteId: string;
}

export const aggregatedBalancesQuery = pageQuery
  .extend({
    debitorMeterId: z.uuid().optional(),
    creditorMeterId: z.uuid().optional(),
    siteId: z.uuid().optional(),
    startDateTime: utcInstant,
    endDateTime: utcInstant,
    interval: z.enum(INTERVALS),
  })
  .strict()
  .superRefine((query, ctx) => {
    if (!query.debitorMeterId && !query.creditorMeterId && !query.siteId) {
      ctx.addIssue({ code: 'custom', path: ['debitorMeterId'], message: 'Give debitorMeterId, creditorMeterId or siteId.', params: { code: 'filter_required' } });
    }
    endAfter('startDateTime', 'endDateTime')(query, ctx);
  });

export const aggregatedBalanceView = z.object({
  debitorMeterId: z.uuid().nullable(),
  creditorMeterId: z.uuid().nullable(),
  kind: z.enum(FLOW_KINDS),
  startDateTime: z.string().meta({ format: 'date-time' }),
  endDateTime: z.string().meta({ format: 'date-time' }),
  value: z.number().describe('kWh'),
}).meta({ id: 'AggregatedBalance' });
export type AggregatedBalanceView = z.output<typeof aggregatedBalanceView>;

export const balancingStatusView = z.object({
  siteId: z.uuid(),
  lastBalancedInterval: z.string().nullable().meta({ format: 'date-time' }).describe('Start of the latest balanced interval'),
  incompleteIntervals: z.number().int().describe('Intervals left unbalanced because participant data is missing'),
  firstIncompleteInterval: z.string().nullable().meta({ format: 'date-time' }),
  pendingRanges: z.number().int().describe('Changed ranges waiting for the worker'),
  heldBack: z
    .array(z.object({ from: z.string().meta({ format: 'date-time' }), to: z.string().meta({ format: 'date-time' }), invoiceId: z.uuid() }))
    .describe('Measurement changes from `from` to `to` (their first and last instant) inside the period of issued invoice `invoiceId`: stored, not balanced until the invoice is cancelled'),
  jobs: z.record(z.string(), z.number().int()).describe('Balancing jobs of the site by state (created, active, retry, failed, completed)'),
}).meta({ id: 'BalancingStatus' });
export type BalancingStatusView = z.output<typeof balancingStatusView>;
