import { createPaymentRunCommand, listPaymentRunItemsQuery, listPaymentRunsQuery, paymentRunItemsView, paymentRunView } from '../../core/payments/payment-runs.commands.js';
import type { Services } from '../../core/services.js';
import { resourceRoutes } from '../resource-routes.js';
import type { RouteSpec } from '../route.js';

/** SEPA payment runs: direct debits (pain.008.001.08) and credit transfers (pain.001.001.09). */
export function paymentRunRoutes(s: Services): RouteSpec[] {
  return [
    ...resourceRoutes({
      path: '/v1/payment-runs',
      tag: 'Payment runs',
      singular: 'PaymentRun',
      plural: 'PaymentRuns',
      view: paymentRunView,
      service: s.paymentRuns,
      create: createPaymentRunCommand,
      list: listPaymentRunsQuery,
      conflicts: true,
    }),
    {
      method: 'get',
      path: '/v1/payment-runs/{id}/items',
      operationId: 'listPaymentRunItems',
      summary: 'The payments of a run in file order, with their state now',
      description: 'A page of the transactions of the file (`limit`, `offset`): customer, mandate, IBAN, end-to-end id and remittance of each payment, and its state today.',
      tag: 'Payment runs',
      query: listPaymentRunItemsQuery,
      response: { status: 200, description: 'A page of items', schema: paymentRunItemsView },
      errors: [404],
      handle: async ({ actor, params, query }) => ({ status: 200, body: await s.paymentRuns.items(actor, params.id!, query) }),
    },
    {
      method: 'get',
      path: '/v1/payment-runs/{id}/file',
      operationId: 'getPaymentRunFile',
      summary: 'The SEPA XML file for the bank: pain.008.001.08 (direct debits, CORE) or pain.001.001.09 (credit transfers)',
      description: 'The ISO 20022 file to upload to the bank, offered as a download named by message type, collection date and run. 409 for a cancelled run, which has none to send.',
      tag: 'Payment runs',
      response: { status: 200, description: 'The ISO 20022 XML', contentType: 'application/xml' },
      errors: [404, 409],
      handle: async ({ actor, params }) => {
        const { xml, fileName } = await s.paymentRuns.file(actor, params.id!);
        return { status: 200, body: Buffer.from(xml, 'utf8'), contentType: 'application/xml', fileName };
      },
    },
    {
      method: 'post',
      path: '/v1/payment-runs/{id}/cancel',
      operationId: 'cancelPaymentRun',
      summary: 'Cancel an open run while no payment has an outcome; its payments return to pending',
      description: 'For a file the bank did not take: the run is cancelled and its payments can be taken by the next run. 409 unless the run is open and none of its payments is received or failed.',
      tag: 'Payment runs',
      response: { status: 200, description: 'The cancelled run', schema: paymentRunView },
      errors: [404, 409],
      handle: async ({ actor, params }) => ({ status: 200, body: await s.paymentRuns.cancel(actor, params.id!) }),
    },
  ];
}
