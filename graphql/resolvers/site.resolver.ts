import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { pageOf } from '../../core/pagination.js';
import type { SiteView } from '../../core/sites/sites.service.js';
import { toPlain, type GraphQLContext } from '../context.js';
import { crudResolver } from '../crud-resolver.js';
import { ListArgs } from '../types/common.types.js';
import { BalancingSettingType, ContractType } from '../types/contract.types.js';
import { MeterType } from '../types/meter.types.js';
import { AggregatedBalanceListType, BalanceArgs, SiteInput, SiteListType, SiteType } from '../types/site.types.js';

@Resolver(() => SiteType)
export class SiteResolver extends crudResolver({
  name: 'Site',
  plural: 'Sites',
  type: SiteType,
  list: SiteListType,
  args: ListArgs,
  input: SiteInput,
  deletable: true,
  service: ({ services }) => services.sites,
}) {
  @FieldResolver(() => [MeterType])
  async meters(@Root() site: SiteView, @Args(() => ListArgs) page: ListArgs, @Ctx() { loaders }: GraphQLContext) {
    return pageOf(await loaders.metersBySite.load(site.id), toPlain(page));
  }

  @FieldResolver(() => [ContractType])
  async contracts(@Root() site: SiteView, @Args(() => ListArgs) page: ListArgs, @Ctx() { loaders }: GraphQLContext) {
    return pageOf(await loaders.contractsBySite.load(site.id), toPlain(page));
  }

  @FieldResolver(() => [BalancingSettingType])
  async balancingSettings(@Root() site: SiteView, @Args(() => ListArgs) page: ListArgs, @Ctx() { loaders }: GraphQLContext) {
    return pageOf(await loaders.settingsBySite.load(site.id), toPlain(page));
  }

  @FieldResolver(() => AggregatedBalanceListType, { description: 'Like GET /v1/aggregated-balances?siteId=' })
  balances(@Root() site: SiteView, @Args(() => BalanceArgs) args: BalanceArgs, @Ctx() { actor, services }: GraphQLContext) {
    return services.balancing.aggregatedBalances(actor, { ...toPlain(args), siteId: site.id });
  }
}
