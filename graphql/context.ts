import type { Actor } from '../core/auth/actor.js';
import type { Services } from '../core/services.js';
import type { Loaders } from './loaders.js';

export interface GraphQLContext {
  actor: Actor;
  services: Services;
  loaders: Loaders;
}

/** type-graphql hands resolvers class instances; core commands take plain JSON. */
export function toPlain(input: object): Record<string, unknown> {
  return JSON.parse(JSON.stringify(input)) as Record<string, unknown>;
}
