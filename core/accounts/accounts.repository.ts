import type { Account, ApiToken, User } from '../domain/accounts/account.js';

export interface AccountRepository {
  addAccount(account: Account): void;
  addUser(user: User): void;
  addApiToken(token: ApiToken): void;
  findAccount(id: string): Promise<Account | null>;
  findUser(id: string): Promise<User | null>;
  /** The account's oldest admin; without an account id, that of the only account (null when there are several or none). */
  findOperator(accountId?: string): Promise<User | null>;
  isEmailTaken(accountId: string, email: string): Promise<boolean>;
  /** Whether any account exists at all (a fresh installation has none). */
  anyAccount(): Promise<boolean>;
  /** Revokes the token and every refresh token issued from it; false when no such token. */
  revokeApiToken(id: string, now: Date): Promise<boolean>;
}
