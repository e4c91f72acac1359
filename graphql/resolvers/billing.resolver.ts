import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { pageOf } from '../../core/pagination.js';
import type { PriceComponentGroupView, PriceComponentView } from '../../core/billing/catalogue/price-catalogue.commands.js';
import type { ProductView } from '../../core/products/products.commands.js';
import { toPlain, type GraphQLContext } from '../context.js';
import { crudResolver } from '../crud-resolver.js';
import { ListArgs } from '../types/common.types.js';
import {
  PriceComponentGroupInput,
  PriceComponentGroupListArgs,
  PriceComponentGroupListType,
  PriceComponentGroupType,
  PriceComponentInput,
  PriceComponentListArgs,
  PriceComponentListType,
  PriceComponentType,
  PriceInput,
  PriceListArgs,
  PriceListType,
  PriceType,
  TaxRateInput,
  TaxRateListArgs,
  TaxRateListType,
  TaxRateType,
  TemplateInput,
  TemplateListArgs,
  TemplateListType,
  TemplateType,
} from '../types/billing.types.js';
import { ProductType } from '../types/customer.types.js';

@Resolver(() => TaxRateType)
export class TaxRateResolver extends crudResolver({
  name: 'TaxRate',
  plural: 'TaxRates',
  type: TaxRateType,
  list: TaxRateListType,
  args: TaxRateListArgs,
  input: TaxRateInput,
  service: ({ services }) => services.taxRates,
}) {}

@Resolver(() => PriceComponentGroupType)
export class PriceComponentGroupResolver extends crudResolver({
  name: 'PriceComponentGroup',
  plural: 'PriceComponentGroups',
  type: PriceComponentGroupType,
  list: PriceComponentGroupListType,
  args: PriceComponentGroupListArgs,
  input: PriceComponentGroupInput,
  service: ({ services }) => services.priceComponentGroups,
}) {
  @FieldResolver(() => [PriceComponentType])
  async priceComponents(@Root() group: PriceComponentGroupView, @Args(() => ListArgs) page: ListArgs, @Ctx() { loaders }: GraphQLContext) {
    return pageOf(await loaders.componentsByGroup.load(group.id), toPlain(page));
  }
}

@Resolver(() => PriceComponentType)
export class PriceComponentResolver extends crudResolver({
  name: 'PriceComponent',
  plural: 'PriceComponents',
  type: PriceComponentType,
  list: PriceComponentListType,
  args: PriceComponentListArgs,
  input: PriceComponentInput,
  service: ({ services }) => services.priceComponents,
}) {
  @FieldResolver(() => [PriceType])
  async prices(@Root() component: PriceComponentView, @Args(() => ListArgs) page: ListArgs, @Ctx() { loaders }: GraphQLContext) {
    return pageOf(await loaders.pricesByComponent.load(component.id), toPlain(page));
  }
}

@Resolver(() => PriceType)
export class PriceResolver extends crudResolver({
  name: 'Price',
  plural: 'Prices',
  type: PriceType,
  list: PriceListType,
  args: PriceListArgs,
  input: PriceInput,
  service: ({ services }) => services.prices,
}) {}

@Resolver(() => ProductType)
export class ProductPricesResolver {
  @FieldResolver(() => [PriceComponentGroupType])
  async priceComponentGroups(@Root() product: ProductView, @Args(() => ListArgs) page: ListArgs, @Ctx() { loaders }: GraphQLContext) {
    return pageOf(await loaders.groupsByProduct.load(product.id), toPlain(page));
  }
}

@Resolver(() => TemplateType)
export class TemplateResolver extends crudResolver({
  name: 'Template',
  plural: 'Templates',
  type: TemplateType,
  list: TemplateListType,
  args: TemplateListArgs,
  input: TemplateInput,
  service: ({ services }) => services.templates,
}) {}
