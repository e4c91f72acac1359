import { Resolver } from 'type-graphql';
import { crudResolver } from '../crud-resolver.js';
import { TaxRateInput, TaxRateListArgs, TaxRateListType, TaxRateType } from '../types/billing.types.js';

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
