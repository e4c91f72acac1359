import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { AccountsService } from '../../core/accounts/accounts.service.js';
import { hashToken, presentedToken } from '../../core/auth/secret-token.js';
import { systemClock } from '../../core/clock.js';
import { RefreshToken } from '../../core/domain/accounts/account.js';
import { MikroAccountRepository } from '../../core/persistence/accounts/account.repository.js';
import { MikroCredentialsRepository } from '../../core/persistence/accounts/credentials.repository.js';
import { MikroTemplateRepository } from '../../core/persistence/billing/template.persistence.js';
import { MikroUnitOfWork } from '../../core/persistence/unit-of-work.js';
import { useRepositoryDatabase } from '../support/repository-database.js';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

describe('MikroCredentialsRepository on PostgreSQL', () => {
  const db = useRepositoryDatabase();
  const repo = () => new MikroCredentialsRepository(db.orm.em);
  const accounts = () => new AccountsService(new MikroAccountRepository(db.orm.em), new MikroTemplateRepository(db.orm.em), new MikroUnitOfWork(db.orm.em), systemClock);
  let otherAccount: Awaited<ReturnType<typeof db.account>>;

  /** A stored refresh token of the credentials; `hash` is its lookup key. */
  const refreshToken = async (owner: { accountId: string; tokenId: string }, extra: Partial<Pick<RefreshToken, 'familyId' | 'expiresAt' | 'usedAt' | 'revokedAt'>> = {}) => {
    const token = Object.assign(new RefreshToken(), {
      id: randomUUID(),
      accountId: owner.accountId,
      apiTokenId: owner.tokenId,
      familyId: randomUUID(),
      tokenHash: hashToken(randomUUID()),
      expiresAt: later(3600),
      usedAt: null,
      revokedAt: null,
      createdAt: NOW,
      ...extra,
    });
    await db.inTransaction(async () => repo().addRefreshToken(token));
    return token;
  };
  const session = (owner: { accountId: string; tokenId: string }, familyId: string) => db.inContext(() => repo().findSession(owner.accountId, owner.tokenId, familyId));
  const stored = async (hash: string) => (await db.sql('select used_at, revoked_at from refresh_tokens where token_hash = $1', [hash]))[0];

  beforeAll(async () => {
    otherAccount = await db.account();
  });

  it('findSession answers the stored user, account and role of an active API token', async () => {
    const owner = await db.account();
    const { familyId } = await refreshToken(owner);
    expect(await session(owner, familyId)).toEqual({ userId: owner.userId, accountId: owner.accountId, role: 'admin', familyRevoked: false });
    expect(await session({ accountId: owner.accountId, tokenId: randomUUID() }, familyId)).toBeNull();
  });

  it('findSession is null once the API token is revoked (and its active lookups too)', async () => {
    const owner = await db.account();
    const { familyId } = await refreshToken(owner);
    expect((await db.inContext(() => repo().findActiveApiTokenByHash(presentedToken(owner.apiToken))))?.user.id).toBe(owner.userId);
    await db.inContext(() => accounts().revokeApiToken({ id: owner.tokenId }));
    expect(await session(owner, familyId)).toBeNull();
    expect(await db.inContext(() => repo().findActiveApiTokenByHash(presentedToken(owner.apiToken)))).toBeNull();
    expect(await db.inContext(() => repo().findActiveApiToken(owner.accountId, owner.tokenId))).toBeNull();
  });

  it("findSession follows the user: a changed role shows at once, a user gone from the token's account ends it", async () => {
    const owner = await db.account();
    const { familyId } = await refreshToken(owner);
    await db.inContext(() => accounts().updateUserRole({ id: owner.userId, role: 'viewer' }));
    expect(await session(owner, familyId)).toMatchObject({ userId: owner.userId, role: 'viewer' });
    // A user cannot leave the token's account: the foreign key pairs the token's account with the user's.
    await expect(db.sql('update users set account_id = $1 where id = $2', [otherAccount.accountId, owner.userId])).rejects.toMatchObject({ code: '23503' });
    // Asked in another account, the session is not found.
    expect(await session({ accountId: otherAccount.accountId, tokenId: owner.tokenId }, familyId)).toBeNull();
  });

  it('findSession reports a family revoked when any of its tokens was, in the same account only', async () => {
    const owner = await db.account();
    const family = randomUUID();
    await refreshToken(owner, { familyId: family, usedAt: NOW });
    expect(await session(owner, family)).toMatchObject({ familyRevoked: false });
    // The same family id revoked in another account does not touch this session.
    await refreshToken(otherAccount, { familyId: family, revokedAt: NOW });
    expect(await session(owner, family)).toMatchObject({ familyRevoked: false });
    await refreshToken(owner, { familyId: family, revokedAt: NOW });
    expect(await session(owner, family)).toMatchObject({ familyRevoked: true });
    expect(await session(owner, randomUUID())).toMatchObject({ familyRevoked: false });
  });

  it('consumeRefreshToken marks an unused, unrevoked, unexpired token used exactly once', async () => {
    const owner = await db.account();
    const token = await refreshToken(owner);
    const consumed = await db.inTransaction(() => repo().consumeRefreshToken({ hash: token.tokenHash, accountId: null }, NOW));
    expect(consumed).toMatchObject({
      id: token.id,
      accountId: owner.accountId,
      apiTokenId: owner.tokenId,
      familyId: token.familyId,
      tokenHash: token.tokenHash,
      expiresAt: token.expiresAt,
      usedAt: NOW,
      revokedAt: null,
    });
    expect(consumed).toBeInstanceOf(RefreshToken);
    expect(await stored(token.tokenHash)).toEqual({ used_at: NOW, revoked_at: null });
    expect(await db.inTransaction(() => repo().consumeRefreshToken({ hash: token.tokenHash, accountId: null }, later(1)))).toBeNull();
    expect(await stored(token.tokenHash)).toEqual({ used_at: NOW, revoked_at: null });
  });

  it.each([
    ['expired', { expiresAt: later(-1) }],
    ['expiring this instant', { expiresAt: NOW }],
    ['revoked', { revokedAt: later(-60) }],
    ['already used', { usedAt: later(-60) }],
  ] as const)('consumeRefreshToken refuses a token %s and leaves it as it was', async (_, state) => {
    const owner = await db.account();
    const token = await refreshToken(owner, state);
    expect(await db.inTransaction(() => repo().consumeRefreshToken({ hash: token.tokenHash, accountId: null }, NOW))).toBeNull();
    expect(await stored(token.tokenHash)).toEqual({ used_at: token.usedAt, revoked_at: token.revokedAt });
  });

  it('consumeRefreshToken is null for an unknown token', async () => {
    expect(await db.inTransaction(() => repo().consumeRefreshToken(presentedToken('never issued'), NOW))).toBeNull();
  });

  it('revokeRefreshFamily revokes every unrevoked token of the family and nothing else', async () => {
    const owner = await db.account();
    const family = randomUUID();
    const used = await refreshToken(owner, { familyId: family, usedAt: later(-120) });
    const current = await refreshToken(owner, { familyId: family });
    const earlier = await refreshToken(owner, { familyId: family, revokedAt: later(-60) });
    const unrelated = await refreshToken(owner);

    await db.inTransaction(() => repo().revokeRefreshFamily(owner.accountId, family, NOW));
    expect(await stored(used.tokenHash)).toEqual({ used_at: later(-120), revoked_at: NOW });
    expect(await stored(current.tokenHash)).toEqual({ used_at: null, revoked_at: NOW });
    expect(await stored(earlier.tokenHash)).toEqual({ used_at: null, revoked_at: later(-60) });
    expect(await stored(unrelated.tokenHash)).toEqual({ used_at: null, revoked_at: null });

    expect(await db.inTransaction(() => repo().consumeRefreshToken({ hash: current.tokenHash, accountId: null }, NOW))).toBeNull();
    expect(await session(owner, family)).toMatchObject({ familyRevoked: true });
    expect(await session(owner, unrelated.familyId)).toMatchObject({ familyRevoked: false });
    expect((await db.inContext(() => repo().findRefreshToken({ hash: used.tokenHash, accountId: null })))?.revokedAt).toEqual(NOW);
  });
});
