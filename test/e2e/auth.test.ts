import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_JWT_SECRET, type SignedUp, type TestApp } from '../support/app.js';

const key = new TextEncoder().encode(TEST_JWT_SECRET);

function forge(claims: Record<string, unknown>, options: { secret?: Uint8Array; iat?: number; exp?: number; iss?: string; aud?: string } = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(options.iss ?? 'ebbs')
    .setAudience(options.aud ?? 'ebbs-api')
    .setIssuedAt(options.iat ?? now)
    .setExpirationTime(options.exp ?? now + 3600)
    .sign(options.secret ?? key);
}

describe('authentication', () => {
  let app: TestApp;
  let acme: SignedUp;

  beforeAll(async () => {
    app = await startTestApp();
    acme = await app.signUp('Acme');
  });
  afterAll(() => app.close());

  it('grants an access token for an API token with the contract fields', async () => {
    const grant = await app.api().post('/v1/oauth', { grantType: 'api_token', token: acme.apiToken });
    expect(grant.status).toBe(201);
    expect(grant.body).toEqual({
      accessToken: expect.stringMatching(/^eyJ/),
      refreshToken: expect.stringMatching(/^ebbs_rt_/),
      clientId: acme.clientId,
      tokenType: 'Bearer',
      expiresIn: 3600,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const [, payload] = grant.body.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    expect(claims).toMatchObject({ iss: 'ebbs', aud: 'ebbs-api', sub: acme.userId, acc: acme.accountId, cid: acme.clientId });
    expect(claims.exp - claims.iat).toBe(3600);
  });

  it('rotates refresh tokens and revokes the family when a used one comes back', async () => {
    const first = await app.api().post('/v1/oauth', { grantType: 'refresh_token', token: acme.refreshToken });
    expect(first.status).toBe(201);
    expect(first.body.refreshToken).not.toBe(acme.refreshToken);
    expect(first.body.clientId).toBe(acme.clientId);
    expect((await app.api(first.body.accessToken).get('/v1/sites')).status).toBe(200);

    const reused = await app.api().post('/v1/oauth', { grantType: 'refresh_token', token: acme.refreshToken });
    expect(reused.status).toBe(401);
    expect(reused.body.code).toBe('invalid_token');

    // The reuse revoked the whole family, including the token the legitimate client holds now.
    const descendant = await app.api().post('/v1/oauth', { grantType: 'refresh_token', token: first.body.refreshToken });
    expect(descendant.status).toBe(401);
    // ... and the family's access tokens, at once rather than when they expire.
    for (const token of [acme.accessToken, first.body.accessToken]) {
      const response = await app.api(token).get('/v1/sites');
      expect([response.status, response.body.code]).toEqual([401, 'invalid_token']);
      expect((await app.api(token).graphql('{ sites { total } }')).status).toBe(401);
    }
    const fresh = await app.api().post('/v1/oauth', { grantType: 'api_token', token: acme.apiToken });
    expect((await app.api(fresh.body.accessToken).get('/v1/sites')).status).toBe(200);
  });

  it('issues tokens that name their account, and still takes the ones issued before they did', async () => {
    const hex = (id: string) => id.replaceAll('-', '');
    const other = await app.signUp('Elsewhere');
    expect(other.apiToken).toMatch(new RegExp(`^ebbs_api_${hex(other.accountId)}_[A-Za-z0-9_-]{43}$`));
    expect(other.refreshToken).toMatch(new RegExp(`^ebbs_rt_${hex(other.accountId)}_`));
    // Naming another account finds nothing: the look-up reads that account only.
    const misdirected = other.apiToken.replace(hex(other.accountId), hex(acme.accountId));
    expect((await app.api().post('/v1/oauth', { grantType: 'api_token', token: misdirected })).status).toBe(401);

    const legacy = `ebbs_api_${randomBytes(32).toString('base64url')}`;
    const db = new pg.Client({ connectionString: app.database.url });
    await db.connect();
    try {
      await db.query(`insert into api_tokens (id, account_id, user_id, token_hash, created_at) values ($1, $2, $3, $4, now())`, [
        randomUUID(),
        other.accountId,
        other.userId,
        createHash('sha256').update(legacy).digest('hex'),
      ]);
    } finally {
      await db.end();
    }
    const grant = await app.api().post('/v1/oauth', { grantType: 'api_token', token: legacy });
    expect(grant.status).toBe(201);
    expect((await app.api(grant.body.accessToken).get('/v1/sites')).status).toBe(200);
    expect((await app.api().post('/v1/oauth', { grantType: 'refresh_token', token: grant.body.refreshToken })).status).toBe(201);
  });

  it('checks the claims against the API token and its user on every request', async () => {
    const viewer = await app.cli('user', 'create', '--account', acme.accountId, '--email', 'viewer@example.test', '--role', 'viewer');
    const grant = await app.api().post('/v1/oauth', { grantType: 'api_token', token: viewer.apiToken });
    const other = await app.signUp('Other');
    const own = { sub: viewer.userId, acc: acme.accountId, cid: grant.body.clientId, role: 'viewer', fam: randomUUID() };
    expect((await app.api(await forge(own)).get('/v1/sites')).status).toBe(200);
    const departures = {
      roleRaised: { ...own, role: 'admin' },
      otherAccount: { ...own, acc: other.accountId },
      otherUser: { ...own, sub: acme.userId },
      otherClient: { ...own, cid: other.clientId },
      noFamily: { ...own, fam: undefined },
    };
    for (const [name, claims] of Object.entries(departures)) {
      const response = await app.api(await forge(claims)).get('/v1/sites');
      expect([response.status, response.body.code], name).toEqual([401, 'invalid_token']);
    }

    // A role change takes effect with the next request, not when the access token expires.
    const session = app.api(grant.body.accessToken);
    expect((await session.get('/v1/sites')).status).toBe(200);
    const db = new pg.Client({ connectionString: app.database.url });
    await db.connect();
    try {
      await db.query(`update users set role = 'admin' where id = $1`, [viewer.userId]);
    } finally {
      await db.end();
    }
    expect((await session.get('/v1/sites')).status).toBe(401);
    expect((await session.graphql('{ sites { total } }')).status).toBe(401);
  });

  it('refuses an expired refresh token', async () => {
    // An app of its own: the others' refresh tokens must not expire while a loaded machine runs them.
    const shortLived = await startTestApp({ REFRESH_TOKEN_TTL: '2' });
    try {
      const account = await shortLived.signUp('Short');
      const grant = await shortLived.api().post('/v1/oauth', { grantType: 'api_token', token: account.apiToken });
      await new Promise((resolve) => setTimeout(resolve, 2_200));
      const expired = await shortLived.api().post('/v1/oauth', { grantType: 'refresh_token', token: grant.body.refreshToken });
      expect(expired.status).toBe(401);
      expect(expired.body.code).toBe('invalid_token');
    } finally {
      await shortLived.close();
    }
  });

  it('answers malformed requests 400 and unknown grants and tokens 400/401', async () => {
    const cases: Array<[unknown, number, string]> = [
      [{ grantType: 'api_token' }, 400, 'invalid_request'],
      [{ grantType: 'api_token', token: 'x', extra: 1 }, 400, 'invalid_request'],
      [{ grantType: 'password', token: 'x' }, 400, 'unsupported_grant_type'],
      [{ grantType: 'api_token', token: 'ebbs_api_unknown' }, 401, 'invalid_token'],
      [{ grantType: 'refresh_token', token: 'ebbs_rt_unknown' }, 401, 'invalid_token'],
    ];
    for (const [body, status, code] of cases) {
      const response = await app.api().post('/v1/oauth', body);
      expect([response.status, response.body.code], JSON.stringify(body)).toEqual([status, code]);
    }
  });

  it('answers 401 with WWW-Authenticate for missing, malformed, expired, forged and alg:none tokens', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { acc: acme.accountId, role: 'admin', cid: acme.clientId, sub: acme.userId, fam: randomUUID() };
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const body = Buffer.from(JSON.stringify({ ...claims, iss: 'ebbs', aud: 'ebbs-api', iat: now, exp: now + 3600 })).toString('base64url');
    const tokens = {
      missing: undefined,
      malformed: 'not-a-jwt',
      expired: await forge(claims, { iat: now - 7200, exp: now - 60 }),
      foreignSigned: await forge(claims, { secret: new TextEncoder().encode('another-secret-another-secret-another-secret') }),
      wrongAudience: await forge(claims, { aud: 'someone-else' }),
      wrongIssuer: await forge(claims, { iss: 'someone-else' }),
      issuedInTheFuture: await forge(claims, { iat: now + 600, exp: now + 4200 }),
      algNone: `${header}.${body}.`,
    };
    for (const [name, token] of Object.entries(tokens)) {
      const response = await app.api(token).get('/v1/sites');
      expect(response.status, name).toBe(401);
      expect(response.headers.get('www-authenticate'), name).toMatch(/^Bearer/);
      expect(response.body.code, name).toBe('invalid_token');
    }
    const withinSkew = await forge(claims, { iat: now - 3600, exp: now - 20 });
    expect((await app.api(withinSkew).get('/v1/sites')).status).toBe(200);
  });

  it('creates and revokes API tokens through the CLI', async () => {
    const created = await app.cli('token', 'create', '--user', acme.userId);
    expect(created).toMatchObject({ userId: acme.userId, apiToken: expect.stringMatching(/^ebbs_api_/) });
    const grant = await app.api().post('/v1/oauth', { grantType: 'api_token', token: created.apiToken });
    expect(grant.body.clientId).toBe(created.id);
    const session = app.api(grant.body.accessToken);
    expect((await session.get('/v1/sites')).status).toBe(200);
    await app.cli('token', 'revoke', '--id', created.id!);
    expect((await session.get('/v1/sites')).status).toBe(401);
    expect((await session.graphql('{ sites { total } }')).status).toBe(401);
    expect((await app.api().post('/v1/oauth', { grantType: 'api_token', token: created.apiToken })).status).toBe(401);
    expect((await app.api().post('/v1/oauth', { grantType: 'refresh_token', token: grant.body.refreshToken })).status).toBe(401);
  });
});
