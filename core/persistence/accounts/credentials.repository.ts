import type { EntityManager } from '@mikro-orm/postgresql';
import type { ActiveApiToken, CredentialsRepository, SessionStanding } from '../../auth/credentials.repository.js';
import type { PresentedToken } from '../../auth/secret-token.js';
import type { RefreshToken, Role } from '../../domain/accounts/account.js';
import { ApiTokenEntity, RefreshTokenEntity, UserEntity } from './account.entities.js';

/** A token that names its account is looked up in that account only. */
const ofToken = (token: PresentedToken) => ({ tokenHash: token.hash, ...(token.accountId ? { accountId: token.accountId } : {}) });

export class MikroCredentialsRepository implements CredentialsRepository {
  constructor(private readonly em: EntityManager) {}

  async findActiveApiTokenByHash(token: PresentedToken): Promise<ActiveApiToken | null> {
    return this.withUser(await this.em.findOne(ApiTokenEntity, { ...ofToken(token), revokedAt: null }));
  }

  async findActiveApiToken(accountId: string, id: string): Promise<ActiveApiToken | null> {
    return this.withUser(await this.em.findOne(ApiTokenEntity, { accountId, id, revokedAt: null }));
  }

  async findSession(accountId: string, apiTokenId: string, familyId: string): Promise<SessionStanding | null> {
    const rows: Array<{ user_id: string; account_id: string; role: Role; family_revoked: boolean }> = await this.em.execute(
      `select u.id as user_id, u.account_id, u.role,
         exists (select 1 from refresh_tokens r where r.family_id = ? and r.account_id = t.account_id and r.revoked_at is not null) as family_revoked
       from api_tokens t join users u on u.id = t.user_id and u.account_id = t.account_id
       where t.account_id = ? and t.id = ? and t.revoked_at is null`,
      [familyId, accountId, apiTokenId],
    );
    const row = rows[0];
    return row ? { userId: row.user_id, accountId: row.account_id, role: row.role, familyRevoked: row.family_revoked } : null;
  }

  addRefreshToken(token: RefreshToken): void {
    this.em.persist(token);
  }

  async consumeRefreshToken(token: PresentedToken, now: Date): Promise<RefreshToken | null> {
    const rows = await this.em
      .createQueryBuilder(RefreshTokenEntity)
      .update({ usedAt: now })
      .where({ ...ofToken(token), usedAt: null, revokedAt: null, expiresAt: { $gt: now } })
      .returning('*')
      .execute('all');
    const row = rows[0];
    return row ? this.em.map(RefreshTokenEntity, row) : null;
  }

  findRefreshToken(token: PresentedToken): Promise<RefreshToken | null> {
    return this.em.findOne(RefreshTokenEntity, ofToken(token));
  }

  async revokeRefreshFamily(accountId: string, familyId: string, now: Date): Promise<void> {
    await this.em.nativeUpdate(RefreshTokenEntity, { accountId, familyId, revokedAt: null }, { revokedAt: now });
  }

  private async withUser(token: ActiveApiToken['token'] | null): Promise<ActiveApiToken | null> {
    if (!token) return null;
    const user = await this.em.findOne(UserEntity, { accountId: token.accountId, id: token.userId });
    return user ? { token, user } : null;
  }
}
