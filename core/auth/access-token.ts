import { SignJWT, jwtVerify } from 'jose';
import { ROLES, type Role } from '../domain/accounts/account.js';
import { AuthenticationError } from '../errors.js';
import type { Actor } from './actor.js';
import { BoundedCache } from '../caching/bounded-cache.js';

export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;
const ISSUER = 'ebbs';
const AUDIENCE = 'ebbs-api';
const ALGORITHM = 'HS256';
const CLOCK_SKEW_SECONDS = 30;

/** What a verified access token claims; every request checks it against the stored session. */
export interface AccessClaims {
  actor: Actor;
  /** The refresh-token family the token was issued in: a reused refresh token revokes it. */
  familyId: string;
}

/** Tokens whose signature was checked, kept by their text (a client sends one token many times). */
const VERIFIED_TOKENS = 10_000;

interface Verified {
  claims: AccessClaims;
  iat: number;
  exp: number;
}

/** Signs and verifies the JWT access tokens (HS256 pinned, iss/aud/exp/iat checked). */
export class AccessTokens {
  private readonly key: Uint8Array;
  /** The signature of the same text verifies the same way every time; the times are checked on every use. */
  private readonly verified = new BoundedCache<Verified>(VERIFIED_TOKENS);

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  async sign({ actor, familyId }: AccessClaims, issuedAt: Date): Promise<string> {
    const iat = Math.floor(issuedAt.getTime() / 1000);
    return new SignJWT({ acc: actor.accountId, role: actor.role, cid: actor.clientId, fam: familyId })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(actor.userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
      .sign(this.key);
  }

  async verify(token: string, now: Date): Promise<AccessClaims> {
    const known = this.verified.get(token);
    if (known) {
      const seconds = now.getTime() / 1000;
      if (known.exp + CLOCK_SKEW_SECONDS <= seconds || known.iat > seconds + CLOCK_SKEW_SECONDS) throw new AuthenticationError();
      return known.claims;
    }
    const verified = await this.verifySignature(token, now);
    this.verified.set(token, verified);
    return verified.claims;
  }

  private async verifySignature(token: string, now: Date): Promise<Verified> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: AUDIENCE,
        clockTolerance: CLOCK_SKEW_SECONDS,
        currentDate: now,
        requiredClaims: ['exp', 'iat', 'sub'],
      });
      const { sub, acc, role, cid, fam, iat, exp } = payload;
      if (typeof iat !== 'number' || typeof exp !== 'number') throw new Error('missing times');
      if (iat > now.getTime() / 1000 + CLOCK_SKEW_SECONDS) throw new Error('issued in the future');
      if (typeof sub !== 'string' || typeof acc !== 'string' || typeof cid !== 'string' || typeof fam !== 'string' || !ROLES.includes(role as Role)) {
        throw new Error('malformed claims');
      }
      return { claims: { actor: { userId: sub, accountId: acc, clientId: cid, role: role as Role }, familyId: fam }, iat, exp };
    } catch {
      throw new AuthenticationError();
    }
  }
}
