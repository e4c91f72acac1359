import type { Role } from '../domain/accounts/account.js';
import { ForbiddenError } from '../errors.js';

/** Who is calling: resolved from the bearer token, passed to every use case. */
export interface Actor {
  accountId: string;
  userId: string;
  role: Role;
  /** The API token the session was opened with. */
  clientId: string;
}

/**
 * Viewers read everything of their account and change nothing. Each adapter calls this once for
 * every write it serves (REST: every non-GET route; GraphQL: every mutation), so no new route can
 * forget it.
 */
export function assertCanWrite(actor: Actor): void {
  if (actor.role !== 'admin') throw new ForbiddenError();
}
