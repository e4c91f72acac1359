import { Arg, Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { pageOf } from '../../core/pagination.js';
import type { BalancingSettingView } from '../../core/balancing/balancing-settings.commands.js';
import type { ContractMeterView, ContractView } from '../../core/contracts/contracts.commands.js';
import { toPlain, type GraphQLContext } from '../context.js';
import { crudResolver } from '../crud-resolver.js';
import { DateScalar } from '../scalars.js';
import { ListArgs } from '../types/common.types.js';
import {
  BalancingSettingInput,
  BalancingSettingListArgs,
  BalancingSettingListType,
  BalancingSettingType,
  ContractInput,
  ContractListArgs,
  ContractListType,
  ContractMeterInput,
  ContractMeterListArgs,
  ContractMeterListType,
  ContractMeterType,
  ContractType,
} from '../types/contract.types.js';
import { CustomerType, ProductType } from '../types/customer.types.js';
import { MeterType } from '../types/meter.types.js';
import { InvoiceDraftType } from '../types/billing.types.js';
import { InvoiceType } from '../types/invoice.types.js';
import { PaymentType } from '../types/payment.types.js';
import { SiteType } from '../types/site.types.js';

@Resolver(() => ContractType)
export class ContractResolver extends crudResolver({
  name: 'Contract',
  plural: 'Contracts',
  type: ContractType,
  list: ContractListType,
  args: ContractListArgs,
  input: ContractInput,
  deletable: true,
  service: ({ services }) => services.contracts,
}) {
  @FieldResolver(() => CustomerType)
  customer(@Root() contract: ContractView, @Ctx() { loaders }: GraphQLContext) {
    return loaders.customer.load(contract.customerId);
  }

  @FieldResolver(() => ProductType)
  electricityProduct(@Root() contract: ContractView, @Ctx() { loaders }: GraphQLContext) {
    return loaders.product.load(contract.electricityProductId);
  }

  @FieldResolver(() => SiteType)
  site(@Root() contract: ContractView, @Ctx() { loaders }: GraphQLContext) {
    return loaders.site.load(contract.siteId);
  }

  @FieldResolver(() => [ContractMeterType])
  async contractMeters(@Root() contract: ContractView, @Args(() => ListArgs) page: ListArgs, @Ctx() { loaders }: GraphQLContext) {
    return pageOf(await loaders.contractMetersByContract.load(contract.id), toPlain(page));
  }

  @FieldResolver(() => [MeterType], { description: 'Every meter ever assigned to the contract' })
  async meters(@Root() contract: ContractView, @Args(() => ListArgs) page: ListArgs, @Ctx() { loaders }: GraphQLContext) {
    const assignments = await loaders.contractMetersByContract.load(contract.id);
    const meters = await loaders.meter.loadMany([...new Set(assignments.map((a) => a.meterId))]);
    return pageOf(meters.filter((meter) => meter !== null && !(meter instanceof Error)), toPlain(page));
  }

  @FieldResolver(() => InvoiceDraftType, { description: 'A preview of the invoice for [periodStart, periodEnd): the bill run computes it the same way' })
  draftInvoice(
    @Root() contract: ContractView,
    @Arg('periodStart', () => DateScalar) periodStart: string,
    @Arg('periodEnd', () => DateScalar) periodEnd: string,
    @Ctx() { actor, services }: GraphQLContext,
  ) {
    return services.invoiceDrafts.preview(actor, contract.id, { periodStart, periodEnd });
  }

  @FieldResolver(() => [PaymentType], { description: 'By due date' })
  async payments(@Root() contract: ContractView, @Args(() => ListArgs) page: ListArgs, @Ctx() { loaders }: GraphQLContext) {
    return pageOf(await loaders.paymentsByContract.load(contract.id), toPlain(page));
  }

  @FieldResolver(() => [InvoiceType], { description: 'Invoices and credit notes, oldest first' })
  async invoices(@Root() contract: ContractView, @Args(() => ListArgs) page: ListArgs, @Ctx() { loaders }: GraphQLContext) {
    return pageOf(await loaders.invoicesByContract.load(contract.id), toPlain(page));
  }
}

@Resolver(() => ContractMeterType)
export class ContractMeterResolver extends crudResolver({
  name: 'ContractMeter',
  plural: 'ContractMeters',
  type: ContractMeterType,
  list: ContractMeterListType,
  args: ContractMeterListArgs,
  input: ContractMeterInput,
  service: ({ services }) => services.contractMeters,
}) {
  @FieldResolver(() => ContractType)
  contract(@Root() assignment: ContractMeterView, @Ctx() { loaders }: GraphQLContext) {
    return loaders.contract.load(assignment.contractId);
  }

  @FieldResolver(() => MeterType)
  meter(@Root() assignment: ContractMeterView, @Ctx() { loaders }: GraphQLContext) {
    return loaders.meter.load(assignment.meterId);
  }
}

@Resolver(() => BalancingSettingType)
export class BalancingSettingResolver extends crudResolver({
  name: 'MeterBalancingSetting',
  plural: 'MeterBalancingSettings',
  type: BalancingSettingType,
  list: BalancingSettingListType,
  args: BalancingSettingListArgs,
  input: BalancingSettingInput,
  service: ({ services }) => services.balancingSettings,
}) {
  @FieldResolver(() => MeterType)
  meter(@Root() setting: BalancingSettingView, @Ctx() { loaders }: GraphQLContext) {
    return loaders.meter.load(setting.meterId);
  }
}
