import type { GraphQLSchema } from 'graphql';
import { printSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { BalancingSettingResolver, ContractMeterResolver, ContractResolver } from './resolvers/contract.resolver.js';
import { CustomAttributeResolver, CustomerResolver, ProductResolver, UserResolver } from './resolvers/customer.resolver.js';
import { MeterResolver, MpoResolver } from './resolvers/meter.resolver.js';
import { SiteResolver } from './resolvers/site.resolver.js';

export async function buildGraphQLSchema(): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers: [
      SiteResolver,
      MeterResolver,
      MpoResolver,
      CustomerResolver,
      ProductResolver,
      ContractResolver,
      ContractMeterResolver,
      BalancingSettingResolver,
      CustomAttributeResolver,
      UserResolver,
    ],
    validate: false,
  });
}

export async function printGraphQLSchema(): Promise<string> {
  return `${printSchema(await buildGraphQLSchema())}\n`;
}
