import { Arg, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { BalancingSettingView } from '../../core/balancing/balancing-settings.commands.js';
import type { ContractMeterView, ContractView } from '../../core/contracts/contracts.commands.js';
import type { GraphQLContext } from '../context.js';
import { crudResolver } from '../crud-resolver.js';
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
  contractMeters(@Root() contract: ContractView, @Ctx() { loaders }: GraphQLContext) {
    return loaders.contractMetersByContract.load(contract.id);
  }

  @FieldResolver(() => [MeterType], { description: 'Every meter ever assigned to the contract' })
  async meters(@Root() contract: ContractView, @Ctx() { loaders }: GraphQLContext) {
    const assignments = await loaders.contractMetersByContract.load(contract.id);
    const meters = await loaders.meter.loadMany([...new Set(assignments.map((a) => a.meterId))]);
    return meters.filter((meter) => meter !== null && !(meter instanceof Error));
  }

  @FieldResolver(() => InvoiceDraftType, { description: 'A preview of the invoice for [periodStart, periodEnd): the bill run computes it the same way' })
  draftInvoice(
    @Root() contract: ContractView,
    @Arg('periodStart', () => String) periodStart: string,
    @Arg('periodEnd', () => String) periodEnd: string,
    @Ctx() { actor, services }: GraphQLContext,
  ) {
    return services.invoiceDrafts.preview(actor, contract.id, { periodStart, periodEnd });
  }

  @FieldResolver(() => [PaymentType], { description: 'By due date' })
  payments(@Root() contract: ContractView, @Ctx() { loaders }: GraphQLContext) {
    return loaders.paymentsByContract.load(contract.id);
  }

  @FieldResolver(() => [InvoiceType], { description: 'Invoices and credit notes, oldest first' })
  invoices(@Root() contract: ContractView, @Ctx() { loaders }: GraphQLContext) {
    return loaders.invoicesByContract.load(contract.id);
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
