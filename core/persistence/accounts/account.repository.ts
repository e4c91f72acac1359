import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccountRepository } from '../../accounts/accounts.repository.js';
import type { Account, ApiToken, User } from '../../domain/accounts/account.js';
import { AccountEntity, ApiTokenEntity, RefreshTokenEntity, UserEntity } from './account.entities.js';

export class MikroAccountRepository implements AccountRepository {
  constructor(private readonly em: EntityManager) {}

  addAccount(account: Account): void {
    this.em.persist(account);
  }

  addUser(user: User): void {
    this.em.persist(user);
  }

  addApiToken(token: ApiToken): void {
    this.em.persist(token);
  }

  findAccount(id: string): Promise<Account | null> {
    return this.em.findOne(AccountEntity, { id });
  }

  findUser(id: string): Promise<User | null> {
    return this.em.findOne(UserEntity, { id });
  }

  async findOperator(accountId?: string): Promise<User | null> {
    const accountIds = accountId ? [accountId] : (await this.em.find(AccountEntity, {}, { fields: ['id'], limit: 2 })).map((a) => a.id);
    if (accountIds.length !== 1) return null;
    return this.em.findOne(UserEntity, { accountId: accountIds[0]!, role: 'admin' }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }

  async anyAccount(): Promise<boolean> {
    return (await this.em.find(AccountEntity, {}, { fields: ['id'], limit: 1 })).length > 0;
  }

  async isEmailTaken(accountId: string, email: string): Promise<boolean> {
    return (await this.em.count(UserEntity, { accountId, email })) > 0;
  }

  async revokeApiToken(id: string, now: Date): Promise<boolean> {
    const revoked = await this.em.nativeUpdate(ApiTokenEntity, { id, revokedAt: null }, { revokedAt: now });
    await this.em.nativeUpdate(RefreshTokenEntity, { apiTokenId: id, revokedAt: null }, { revokedAt: now });
    return revoked > 0 || (await this.em.count(ApiTokenEntity, { id })) > 0;
  }
}
