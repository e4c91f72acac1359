import { z } from 'zod';
import { aggregatedBalancesQuery, aggregatedBalanceView, balancingStatusView } from '../../core/balancing/balancing.commands.js';
import type { BalancingService } from '../../core/balancing/balancing.service.js';
import type { RouteSpec } from '../route.js';

export function balancingRoutes(balancing: BalancingService): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/v1/aggregated-balances',
      operationId: 'aggregateBalances',
      summary: 'Balanced energy per bucket with creditor and debitor meters',
      tag: 'Balancing',
      query: aggregatedBalancesQuery,
      response: { status: 200, description: 'Rows by bucket, debitor, creditor and kind', schema: z.object({ data: z.array(aggregatedBalanceView), total: z.number().int() }) },
      errors: [404],
      handle: async ({ actor, query }) => ({ status: 200, body: await balancing.aggregatedBalances(actor, query) }),
    },
    {
      method: 'get',
      path: '/v1/sites/{id}/balancing-status',
      operationId: 'getBalancingStatus',
      summary: "Where a site's balancing stands: last balanced interval, incomplete intervals, jobs",
      tag: 'Balancing',
      response: { status: 200, description: 'The status', schema: balancingStatusView },
      errors: [404],
      handle: async ({ actor, params }) => ({ status: 200, body: await balancing.status(actor, params.id!) }),
    },
  ];
}
