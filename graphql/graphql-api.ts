import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import type { RequestHandler } from 'express';
import type { Actor } from '../core/auth/actor.js';
import type { Services } from '../core/services.js';
import type { GraphQLContext } from './context.js';
import { createLoaders } from './loaders.js';
import { formatError } from './errors.js';
import { queryLimits, type QueryLimits } from './query-limits.js';
import { buildGraphQLSchema } from './schema.js';

export interface GraphQLApi {
  /** Costs the operation and refuses it above the limits; an accepted one's cost is on `res.locals.graphqlCost`. */
  limits: RequestHandler;
  middleware: RequestHandler;
  stop(): Promise<void>;
}

/** Apollo behind the shared HTTP guards: the caller's actor is already on `res.locals`. */
export async function createGraphQLApi(services: Services, limits: QueryLimits): Promise<GraphQLApi> {
  const schema = await buildGraphQLSchema();
  const server = new ApolloServer<GraphQLContext>({
    schema,
    formatError,
    includeStacktraceInErrorResponses: false,
    // The process owns SIGTERM/SIGINT (app/main.ts drains HTTP, then stops Apollo, the queue and
    // the ORM); Apollo's own handler would race it and leave the process hanging.
    stopOnTerminationSignals: false,
  });
  await server.start();
  const middleware = expressMiddleware(server, {
    context: async ({ res }) => {
      const actor = res.locals.actor as Actor;
      return { actor, services, loaders: createLoaders(actor, services, new Date().toISOString().slice(0, 10)) };
    },
  });
  return { limits: queryLimits(schema, limits), middleware, stop: () => server.stop() };
}
