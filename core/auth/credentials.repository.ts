import type { ApiToken, RefreshToken, Role, User } from '../domain/accounts/account.js';
import type { PresentedToken } from './secret-token.js';

export interface ActiveApiToken {
  token: ApiToken;
  user: User;
}

/** The stored truth behind an access token, read once per request. */
export interface SessionStanding {
  userId: string;
  accountId: string;
  role: Role;
  familyRevoked: boolean;
}

export interface CredentialsRepository {
  findActiveApiTokenByHash(token: PresentedToken): Promise<ActiveApiToken | null>;
  findActiveApiToken(accountId: string, id: string): Promise<ActiveApiToken | null>;
  /** One indexed lookup per request; null when the API token is revoked or its user is gone. */
  findSession(accountId: string, apiTokenId: string, familyId: string): Promise<SessionStanding | null>;
  addRefreshToken(token: RefreshToken): void;
  /** Marks an unused, unrevoked, unexpired token used in one statement; null when it was not. */
  consumeRefreshToken(token: PresentedToken, now: Date): Promise<RefreshToken | null>;
  findRefreshToken(token: PresentedToken): Promise<RefreshToken | null>;
  revokeRefreshFamily(accountId: string, familyId: string, now: Date): Promise<void>;
}
