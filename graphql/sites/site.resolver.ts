import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { toPlain, type GraphQLContext } from '../context.js';
import { SiteInput, SiteListType, SiteType } from './site.types.js';

@Resolver(() => SiteType)
export class SiteResolver {
  @Query(() => SiteType)
  site(@Arg('id', () => ID) id: string, @Ctx() { actor, services }: GraphQLContext) {
    return services.sites.getSite(actor, id);
  }

  @Query(() => SiteListType)
  sites(
    @Ctx() { actor, services }: GraphQLContext,
    @Arg('limit', () => Int, { nullable: true }) limit?: number,
    @Arg('offset', () => Int, { nullable: true }) offset?: number,
  ) {
    return services.sites.listSites(actor, toPlain({ limit, offset }));
  }

  @Mutation(() => SiteType)
  createSite(@Arg('input', () => SiteInput) input: SiteInput, @Ctx() { actor, services }: GraphQLContext) {
    return services.sites.createSite(actor, toPlain(input));
  }

  @Mutation(() => SiteType)
  updateSite(@Arg('id', () => ID) id: string, @Arg('input', () => SiteInput) input: SiteInput, @Ctx() { actor, services }: GraphQLContext) {
    return services.sites.updateSite(actor, id, toPlain(input));
  }
}
