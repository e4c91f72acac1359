import type { ApiToken, RefreshToken, User } from '../domain/accounts/account.js';

export interface ActiveApiToken {
  token: ApiToken;
  user: User;
}

export interface CredentialsRepository {
  findActiveApiTokenByHash(tokenHash: string): Promise<ActiveApiToken | null>;
  findActiveApiToken(id: string): Promise<ActiveApiToken | null>;
  /** One indexed lookup per request, so a revoked token stops working at once. */
  isApiTokenActive(id: string): Promise<boolean>;
  addRefreshToken(token: RefreshToken): void;
  /** Marks an unused, unrevoked, unexpired token used in one statement; null when it was not. */
  consumeRefreshToken(tokenHash: string, now: Date): Promise<RefreshToken | null>;
  findRefreshToken(tokenHash: string): Promise<RefreshToken | null>;
  revokeRefreshFamily(familyId: string, now: Date): Promise<void>;
}
