import type { Actor } from '../core/auth/actor.js';
import type { SitesService } from '../core/sites/sites.service.js';

export interface GraphQLServices {
  sites: SitesService;
}

export interface GraphQLContext {
  actor: Actor;
  services: GraphQLServices;
}

/** type-graphql hands resolvers class instances; core commands take plain JSON. */
export function toPlain(input: object): Record<string, unknown> {
  return JSON.parse(JSON.stringify(input)) as Record<string, unknown>;
}
