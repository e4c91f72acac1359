import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Resolver, Root } from 'type-graphql';
import type { PaymentRunView } from '../../core/payments/payment-runs.commands.js';
import { toPlain, type GraphQLContext } from '../context.js';
import { crudResolver } from '../crud-resolver.js';
import { ListArgs } from '../types/common.types.js';
import { PaymentRunInput, PaymentRunItemType, PaymentRunListArgs, PaymentRunListType, PaymentRunType } from '../types/payment-run.types.js';

@Resolver(() => PaymentRunType)
export class PaymentRunResolver extends crudResolver({
  name: 'PaymentRun',
  plural: 'PaymentRuns',
  type: PaymentRunType,
  list: PaymentRunListType,
  args: PaymentRunListArgs,
  input: PaymentRunInput,
  updatable: false,
  service: ({ services }) => services.paymentRuns,
}) {
  @FieldResolver(() => [PaymentRunItemType], { description: 'The payments of the run in file order, with their state now' })
  items(@Root() run: PaymentRunView, @Args(() => ListArgs) page: ListArgs, @Ctx() { loaders }: GraphQLContext) {
    return loaders.paymentRunItems(toPlain(page)).load(run.id);
  }

  @Mutation(() => PaymentRunType, { description: 'Cancels an open run while no payment has an outcome; its payments return to pending' })
  cancelPaymentRun(@Arg('id', () => ID) id: string, @Ctx() { actor, services }: GraphQLContext) {
    return services.paymentRuns.cancel(actor, id);
  }
}
