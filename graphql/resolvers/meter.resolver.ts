import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { MeterView } from '../../core/meters/meters.commands.js';
import { toPlain, type GraphQLContext as Context } from '../context.js';
import { crudResolver } from '../crud-resolver.js';
import { ListArgs } from '../types/common.types.js';
import { ContractType } from '../types/contract.types.js';
import {
  AggregatedMeasurementListType,
  AggregationArgs,
  MeasurementListType,
  MeasurementRangeArgs,
  MeterInput,
  MeterListArgs,
  MeterListType,
  MeterType,
  MpoInput,
  MpoListType,
  MpoType,
} from '../types/meter.types.js';
import { AggregatedBalanceListType, BalanceArgs, SiteType } from '../types/site.types.js';

@Resolver(() => MeterType)
export class MeterResolver extends crudResolver({
  name: 'Meter',
  plural: 'Meters',
  type: MeterType,
  list: MeterListType,
  args: MeterListArgs,
  input: MeterInput,
  deletable: true,
  service: ({ services }) => services.meters,
}) {
  @FieldResolver(() => SiteType)
  site(@Root() meter: MeterView, @Ctx() { loaders }: Context) {
    return loaders.site.load(meter.siteId);
  }

  @FieldResolver(() => ContractType, { nullable: true, description: 'The contract the meter is assigned to today' })
  async contract(@Root() meter: MeterView, @Ctx() { loaders }: Context) {
    const assignment = await loaders.activeAssignment.load(meter.id);
    return assignment && loaders.contract.load(assignment.contractId);
  }

  @FieldResolver(() => MeasurementListType, { description: 'Values as submitted, like GET /v1/measurements' })
  measurements(@Root() meter: MeterView, @Args(() => MeasurementRangeArgs) args: MeasurementRangeArgs, @Ctx() { actor, services }: Context) {
    return services.measurements.list(actor, { ...toPlain(args), meterId: meter.id });
  }

  @FieldResolver(() => AggregatedBalanceListType, { description: 'Like GET /v1/aggregated-balances?debitorMeterId=' })
  balances(@Root() meter: MeterView, @Args(() => BalanceArgs) args: BalanceArgs, @Ctx() { actor, services }: Context) {
    return services.balancing.aggregatedBalances(actor, { ...toPlain(args), debitorMeterId: meter.id });
  }

  @FieldResolver(() => AggregatedMeasurementListType, { description: 'Energy per bucket, like GET /v1/aggregated-measurements' })
  aggregatedMeasurements(@Root() meter: MeterView, @Args(() => AggregationArgs) args: AggregationArgs, @Ctx() { actor, services }: Context) {
    return services.measurements.aggregate(actor, { ...toPlain(args), meterId: meter.id });
  }
}

@Resolver(() => MpoType)
export class MpoResolver extends crudResolver({
  name: 'Mpo',
  plural: 'Mpos',
  type: MpoType,
  list: MpoListType,
  args: ListArgs,
  input: MpoInput,
  updatable: false,
  service: ({ services }) => services.mpos,
}) {}
