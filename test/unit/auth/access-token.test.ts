import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { AccessTokens } from '../../../core/auth/access-token.js';
import { AuthenticationError } from '../../../core/errors.js';

const SECRET = 'access-token-test-secret-0123456789abcdef';
const claims = { actor: { userId: 'u', accountId: 'a', clientId: 'c', role: 'viewer' as const }, familyId: 'f' };
const at = (iso: string) => new Date(iso);

describe('AccessTokens', () => {
  it('checks the times of a token on every use, also after its signature was verified once', async () => {
    const tokens = new AccessTokens(SECRET);
    const token = await tokens.sign(claims, at('2026-11-23T10:00:00Z'));
    expect(await tokens.verify(token, at('2026-11-23T10:00:00Z'))).toEqual(claims);
    // Valid for an hour, with 30 s of clock skew either way.
    expect(await tokens.verify(token, at('2026-11-23T11:00:29Z'))).toEqual(claims);
    await expect(tokens.verify(token, at('2026-11-23T11:00:30Z'))).rejects.toBeInstanceOf(AuthenticationError);
    await expect(tokens.verify(token, at('2026-11-23T09:59:29Z'))).rejects.toBeInstanceOf(AuthenticationError);
    expect(await tokens.verify(token, at('2026-11-23T09:59:31Z'))).toEqual(claims);
  });

  it('refuses a token signed with another secret or altered, before and after the genuine one was seen', async () => {
    const tokens = new AccessTokens(SECRET);
    const now = at('2026-11-23T10:00:00Z');
    const genuine = await tokens.sign(claims, now);
    const foreign = await new AccessTokens(`${SECRET}-other`).sign(claims, now);
    const [header, payload, signature] = genuine.split('.');
    const raised = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), role: 'admin' })).toString('base64url');
    for (const forged of [foreign, `${header}.${raised}.${signature}`]) {
      await expect(tokens.verify(forged, now)).rejects.toBeInstanceOf(AuthenticationError);
      await tokens.verify(genuine, now);
      await expect(tokens.verify(forged, now)).rejects.toBeInstanceOf(AuthenticationError);
    }
  });

  it('refuses a token without an expiry or issue time', async () => {
    const tokens = new AccessTokens(SECRET);
    const unsigned = new SignJWT({ acc: 'a', role: 'viewer', cid: 'c', fam: 'f' }).setProtectedHeader({ alg: 'HS256' }).setSubject('u').setIssuer('ebbs').setAudience('ebbs-api');
    const key = new TextEncoder().encode(SECRET);
    await expect(tokens.verify(await unsigned.setIssuedAt(1_795_000_000).sign(key), at('2026-11-23T10:00:00Z'))).rejects.toBeInstanceOf(AuthenticationError);
  });
});
