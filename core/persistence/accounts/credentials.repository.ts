import type { EntityManager } from '@mikro-orm/postgresql';
import type { ActiveApiToken, CredentialsRepository } from '../../auth/credentials.repository.js';
import type { RefreshToken } from '../../domain/accounts/account.js';
import { ApiTokenEntity, RefreshTokenEntity, UserEntity } from './account.entities.js';

export class MikroCredentialsRepository implements CredentialsRepository {
  constructor(private readonly em: EntityManager) {}

  async findActiveApiTokenByHash(tokenHash: string): Promise<ActiveApiToken | null> {
    return this.withUser(await this.em.findOne(ApiTokenEntity, { tokenHash, revokedAt: null }));
  }

  async findActiveApiToken(id: string): Promise<ActiveApiToken | null> {
    return this.withUser(await this.em.findOne(ApiTokenEntity, { id, revokedAt: null }));
  }

  async isApiTokenActive(id: string): Promise<boolean> {
    const rows = await this.em.execute('select 1 from api_tokens where id = ? and revoked_at is null', [id]);
    return rows.length > 0;
  }

  addRefreshToken(token: RefreshToken): void {
    this.em.persist(token);
  }

  async consumeRefreshToken(tokenHash: string, now: Date): Promise<RefreshToken | null> {
    const rows = await this.em
      .createQueryBuilder(RefreshTokenEntity)
      .update({ usedAt: now })
      .where({ tokenHash, usedAt: null, revokedAt: null, expiresAt: { $gt: now } })
      .returning('*')
      .execute('all');
    const row = rows[0];
    return row ? this.em.map(RefreshTokenEntity, row) : null;
  }

  findRefreshToken(tokenHash: string): Promise<RefreshToken | null> {
    return this.em.findOne(RefreshTokenEntity, { tokenHash });
  }

  async revokeRefreshFamily(familyId: string, now: Date): Promise<void> {
    await this.em.nativeUpdate(RefreshTokenEntity, { familyId, revokedAt: null }, { revokedAt: now });
  }

  private async withUser(token: ActiveApiToken['token'] | null): Promise<ActiveApiToken | null> {
    if (!token) return null;
    const user = await this.em.findOne(UserEntity, { id: token.userId });
    return user ? { token, user } : null;
  }
}
