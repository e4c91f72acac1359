import { randomUUID } from 'node:crypto';
import type { AccountCache } from '../caching/account-cache.js';
import type { Clock } from '../clock.js';
import { RefreshToken } from '../domain/accounts/account.js';
import { AuthenticationError, ValidationError } from '../errors.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { parseInput } from '../validation.js';
import { ACCESS_TOKEN_TTL_SECONDS, type AccessTokens } from './access-token.js';
import type { Actor } from './actor.js';
import { GRANT_TYPES, oauthCommand, type TokenGrant } from './auth.commands.js';
import type { ActiveApiToken, CredentialsRepository, SessionStanding } from './credentials.repository.js';
import { generateToken, hashToken, presentedToken } from './secret-token.js';

export interface AuthSettings {
  refreshTokenTtlSeconds: number;
}

export class AuthService {
  constructor(
    private readonly credentials: CredentialsRepository,
    private readonly uow: UnitOfWork,
    private readonly accessTokens: AccessTokens,
    private readonly clock: Clock,
    private readonly settings: AuthSettings,
    /** Per account, by API token and refresh-token family; forgotten on every change the feed announces. */
    private readonly standings: AccountCache<SessionStanding | null>,
  ) {}

  /** POST /v1/oauth: trade an API token or a refresh token for a new access and refresh token. */
  async exchange(input: unknown): Promise<TokenGrant> {
    const command = this.parseOauth(input);
    if (command.grantType === 'api_token') {
      const active = await this.credentials.findActiveApiTokenByHash(presentedToken(command.token));
      if (!active) throw new AuthenticationError('The API token is unknown or revoked.');
      return this.uow.transactional(() => this.grant(active, randomUUID()));
    }
    return this.refresh(command.token);
  }

  /**
   * A valid signature is not enough: the API token must still be active, its user must exist with
   * the account and role the token claims (a role change takes effect at once), and the session's
   * refresh-token family must not have been revoked for reuse. What the database says may come
   * from memory, but only as fresh as a read at the start of the request (see AccountCache).
   */
  async authenticate(bearer: string): Promise<Actor> {
    const { actor, familyId } = await this.accessTokens.verify(bearer, this.clock.now());
    const session = await this.standings.get(actor.accountId, `${actor.clientId}:${familyId}`, () =>
      this.credentials.findSession(actor.accountId, actor.clientId, familyId),
    );
    if (!session) throw new AuthenticationError('The API token of this session was revoked.');
    if (session.familyRevoked) throw new AuthenticationError('This session was revoked because its refresh token was reused.');
    if (session.userId !== actor.userId || session.accountId !== actor.accountId || session.role !== actor.role) {
      throw new AuthenticationError("The user's role or account changed; sign in again.");
    }
    return actor;
  }

  private parseOauth(input: unknown): { grantType: (typeof GRANT_TYPES)[number]; token: string } {
    let command;
    try {
      command = parseInput(oauthCommand, input);
    } catch (error) {
      if (error instanceof ValidationError) throw new ValidationError(error.errors, 'invalid_request');
      throw error;
    }
    const grantType = GRANT_TYPES.find((g) => g === command.grantType);
    if (!grantType) {
      throw new ValidationError(
        [{ path: 'grantType', code: 'unsupported_grant_type', message: `Use one of ${GRANT_TYPES.join(', ')}.` }],
        'unsupported_grant_type',
      );
    }
    return { grantType, token: command.token };
  }

  private async refresh(token: string): Promise<TokenGrant> {
    const now = this.clock.now();
    const presented = presentedToken(token);
    const outcome = await this.uow.transactional(async () => {
      const consumed = await this.credentials.consumeRefreshToken(presented, now);
      if (!consumed) return { grant: null };
      const active = await this.credentials.findActiveApiToken(consumed.accountId, consumed.apiTokenId);
      if (!active) return { grant: null };
      return { grant: await this.grant(active, consumed.familyId) };
    });
    if (outcome.grant) return outcome.grant;
    const existing = await this.credentials.findRefreshToken(presented);
    if (existing?.usedAt) {
      // A used token presented again means it leaked: end every session descending from it.
      await this.credentials.revokeRefreshFamily(existing.accountId, existing.familyId, now);
      throw new AuthenticationError('The refresh token was already used; its session has been revoked.');
    }
    throw new AuthenticationError('The refresh token is unknown, expired or revoked.');
  }

  private async grant(active: ActiveApiToken, familyId: string): Promise<TokenGrant> {
    const now = this.clock.now();
    const actor: Actor = {
      accountId: active.user.accountId,
      userId: active.user.id,
      role: active.user.role,
      clientId: active.token.id,
    };
    const refreshToken = generateToken('ebbs_rt', actor.accountId);
    this.credentials.addRefreshToken(
      Object.assign(new RefreshToken(), {
        id: randomUUID(),
        accountId: actor.accountId,
        apiTokenId: active.token.id,
        familyId,
        tokenHash: hashToken(refreshToken),
        expiresAt: new Date(now.getTime() + this.settings.refreshTokenTtlSeconds * 1000),
        usedAt: null,
        revokedAt: null,
        createdAt: now,
      }),
    );
    return {
      accessToken: await this.accessTokens.sign({ actor, familyId }, now),
      refreshToken,
      clientId: active.token.id,
      tokenType: 'Bearer',
      expiresIn: ACCESS_TOKEN_TTL_SECONDS,
      createdAt: now.toISOString(),
    };
  }
}
