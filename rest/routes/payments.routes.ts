import { createPaymentMethodCommand, listPaymentMethodsQuery, paymentMethodView, updatePaymentMethodCommand } from '../../core/payments/payment-methods.commands.js';
import { createPaymentCommand, createPaymentsBatchCommand, listPaymentsQuery, paymentBatchView, paymentView, updatePaymentCommand } from '../../core/payments/payments.commands.js';
import {
  createPrepaymentAmountCommand,
  createPrepaymentRequestCommand,
  listPrepaymentAmountsQuery,
  listPrepaymentRequestsQuery,
  prepaymentAmountView,
  prepaymentRequestView,
  updatePrepaymentAmountCommand,
} from '../../core/payments/prepayments.commands.js';
import type { Services } from '../../core/services.js';
import { resourceRoutes } from '../resource-routes.js';
import type { RouteSpec } from '../route.js';

/** Payment methods, payments and prepayments. */
export function paymentRoutes(s: Services): RouteSpec[] {
  return [
    ...resourceRoutes({
      path: '/v1/payment-methods',
      tag: 'Payments',
      singular: 'PaymentMethod',
      plural: 'PaymentMethods',
      view: paymentMethodView,
      service: s.paymentMethods,
      create: createPaymentMethodCommand,
      list: listPaymentMethodsQuery,
      update: updatePaymentMethodCommand,
    }),
    {
      method: 'post',
      path: '/v1/payments/batch',
      operationId: 'createPaymentsBatch',
      summary: 'Create up to 1,000 payments, all or none (every invalid item is reported by index)',
      description: 'Each item is a payment as POST /v1/payments takes it. Either every payment is created, answered in the order sent, or none is: 400 names each invalid item by its index, 409 a conflict.',
      tag: 'Payments',
      body: createPaymentsBatchCommand,
      response: { status: 201, description: 'The created payments, in the order sent', schema: paymentBatchView },
      errors: [409, 413],
      handle: async ({ actor, body }) => ({ status: 201, body: await s.payments.createBatch(actor, body) }),
    },
    ...resourceRoutes({
      path: '/v1/payments',
      tag: 'Payments',
      singular: 'Payment',
      plural: 'Payments',
      view: paymentView,
      service: s.payments,
      create: createPaymentCommand,
      list: listPaymentsQuery,
      update: updatePaymentCommand,
      conflicts: true,
    }),
    ...resourceRoutes({
      path: '/v1/prepayment-amounts',
      tag: 'Prepayments',
      singular: 'PrepaymentAmount',
      plural: 'PrepaymentAmounts',
      view: prepaymentAmountView,
      service: s.prepaymentAmounts,
      create: createPrepaymentAmountCommand,
      list: listPrepaymentAmountsQuery,
      update: updatePrepaymentAmountCommand,
      conflicts: true,
    }),
    ...resourceRoutes({
      path: '/v1/prepayment-requests',
      tag: 'Prepayments',
      singular: 'PrepaymentRequest',
      plural: 'PrepaymentRequests',
      view: prepaymentRequestView,
      service: s.prepaymentRequests,
      create: createPrepaymentRequestCommand,
      list: listPrepaymentRequestsQuery,
      conflicts: true,
    }),
  ];
}
