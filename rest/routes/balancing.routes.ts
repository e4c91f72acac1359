import { aggregatedBalancesQuery, aggregatedBalanceView, balancingStatusView } from '../../core/balancing/balancing.commands.js';
import type { BalancingService } from '../../core/balancing/balancing.service.js';
import { listOf, type RouteSpec } from '../route.js';

export function balancingRoutes(balancing: BalancingService): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/v1/aggregated-balances',
      operationId: 'aggregateBalances',
      summary: 'Balanced energy per bucket with creditor and debitor meters',
      description:
        'Energy the balancing moved from creditor (supplying) to debitor (consuming) meters, summed per bucket of `interval` aligned to the account timezone, ' +
        'from `startDateTime` to `endDateTime`. Give `siteId`, `debitorMeterId` or `creditorMeterId`; 404 when it names nothing in the account.',
      tag: 'Balancing',
      query: aggregatedBalancesQuery,
      response: { status: 200, description: 'Rows by bucket, debitor, creditor and kind', schema: listOf(aggregatedBalanceView) },
      errors: [404],
      handle: async ({ actor, query }) => ({ status: 200, body: await balancing.aggregatedBalances(actor, query) }),
    },
    {
      method: 'get',
      path: '/v1/sites/{id}/balancing-status',
      operationId: 'getBalancingStatus',
      summary: "Where a site's balancing stands: last balanced interval, incomplete intervals, jobs",
      description:
        'The latest balanced interval, the intervals left open for missing participant data, changes still queued, ' +
        'measurement changes held back inside an issued invoice, and the balancing jobs of the site by state.',
      tag: 'Balancing',
      response: { status: 200, description: 'The status', schema: balancingStatusView },
      errors: [404],
      handle: async ({ actor, params }) => ({ status: 200, body: await balancing.status(actor, params.id!) }),
    },
  ];
}
