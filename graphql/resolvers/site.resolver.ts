import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { SiteView } from '../../core/sites/sites.service.js';
import type { GraphQLContext } from '../context.js';
import { crudResolver } from '../crud-resolver.js';
import { ListArgs } from '../types/common.types.js';
import { BalancingSettingType, ContractType } from '../types/contract.types.js';
import { MeterType } from '../types/meter.types.js';
import { SiteInput, SiteListType, SiteType } from '../types/site.types.js';

@Resolver(() => SiteType)
export class SiteResolver extends crudResolver({
  name: 'Site',
  plural: 'Sites',
  type: SiteType,
  list: SiteListType,
  args: ListArgs,
  input: SiteInput,
  service: ({ services }) => services.sites,
}) {
  @FieldResolver(() => [MeterType])
  meters(@Root() site: SiteView, @Ctx() { loaders }: GraphQLContext) {
    return loaders.metersBySite.load(site.id);
  }

  @FieldResolver(() => [ContractType])
  contracts(@Root() site: SiteView, @Ctx() { loaders }: GraphQLContext) {
    return loaders.contractsBySite.load(site.id);
  }

  @FieldResolver(() => [BalancingSettingType])
  balancingSettings(@Root() site: SiteView, @Ctx() { loaders }: GraphQLContext) {
    return loaders.settingsBySite.load(site.id);
  }
}
