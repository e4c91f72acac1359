import type { GraphQLSchema } from 'graphql';
import { printSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { SiteResolver } from './sites/site.resolver.js';

export async function buildGraphQLSchema(): Promise<GraphQLSchema> {
  return buildSchema({ resolvers: [SiteResolver], validate: false });
}

export async function printGraphQLSchema(): Promise<string> {
  return `${printSchema(await buildGraphQLSchema())}\n`;
}
