import type { ApiToken, RefreshToken, Role, User } from '../domain/accounts/account.js';

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
  findActiveApiTokenByHash(tokenHash: string): Promise<ActiveApiToken | null>;
  findActiveApiToken(id: string): Promise<ActiveApiToken | null>;
  /** One indexed lookup per request; null when the API token is revoked or its user is gone. */
  findSession(apiTokenId: string, familyId: string): Promise<SessionStanding | null>;
  addRefreshToken(token: RefreshToken): void;
  /** Marks an unused, unrevoked, unexpired token used in one statement; null when it was not. */
  consumeRefreshToken(tokenHash: string, now: Date): Promise<RefreshToken | null>;
  findRefreshToken(tokenHash: string): Promise<RefreshToken | null>;
  revokeRefreshFamily(familyId: string, now: Date): Promise<void>;
}
