import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { toPlain, type GraphQLContext } from '../context.js';
import { crudResolver } from '../crud-resolver.js';
import {
  PaymentInput,
  PaymentListArgs,
  PaymentListType,
  PaymentMethodInput,
  PaymentMethodListArgs,
  PaymentMethodListType,
  PaymentMethodType,
  PaymentType,
  PrepaymentAmountInput,
  PrepaymentAmountListArgs,
  PrepaymentAmountListType,
  PrepaymentAmountType,
  PrepaymentRequestInput,
  PrepaymentRequestListArgs,
  PrepaymentRequestListType,
  PrepaymentRequestType,
} from '../types/payment.types.js';

@Resolver(() => PaymentMethodType)
export class PaymentMethodResolver extends crudResolver({
  name: 'PaymentMethod',
  plural: 'PaymentMethods',
  type: PaymentMethodType,
  list: PaymentMethodListType,
  args: PaymentMethodListArgs,
  input: PaymentMethodInput,
  deletable: true,
  service: ({ services }) => services.paymentMethods,
}) {}

@Resolver(() => PaymentType)
export class PaymentResolver extends crudResolver({
  name: 'Payment',
  plural: 'Payments',
  type: PaymentType,
  list: PaymentListType,
  args: PaymentListArgs,
  input: PaymentInput,
  service: ({ services }) => services.payments,
}) {
  @Mutation(() => PaymentListType, { description: 'Up to 1,000 payments, all or none' })
  createPayments(@Arg('input', () => [PaymentInput]) payments: PaymentInput[], @Ctx() { actor, services }: GraphQLContext) {
    return services.payments.createBatch(actor, { payments: payments.map((payment) => toPlain(payment)) });
  }
}

@Resolver(() => PrepaymentAmountType)
export class PrepaymentAmountResolver extends crudResolver({
  name: 'PrepaymentAmount',
  plural: 'PrepaymentAmounts',
  type: PrepaymentAmountType,
  list: PrepaymentAmountListType,
  args: PrepaymentAmountListArgs,
  input: PrepaymentAmountInput,
  service: ({ services }) => services.prepaymentAmounts,
}) {}

@Resolver(() => PrepaymentRequestType)
export class PrepaymentRequestResolver extends crudResolver({
  name: 'PrepaymentRequest',
  plural: 'PrepaymentRequests',
  type: PrepaymentRequestType,
  list: PrepaymentRequestListType,
  args: PrepaymentRequestListArgs,
  input: PrepaymentRequestInput,
  updatable: false,
  service: ({ services }) => services.prepaymentRequests,
}) {}
