import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';

const site = { name: 'Haus A', type: 'unbalanced_accurate', address: { locality: 'Berlin', postCode: '10115', country: 'DE' } };

describe('common HTTP behaviour', () => {
  let app: TestApp;
  let acme: SignedUp;

  beforeAll(async () => {
    app = await startTestApp();
    acme = await app.signUp('Acme');
  });
  afterAll(() => app.close());

  it('serves /health and /ready without a token', async () => {
    expect(await app.api().get('/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await app.api().get('/ready')).toMatchObject({ status: 200, body: { status: 'ready' } });
  });

  it('answers unknown routes 404 as problem+json', async () => {
    const response = await acme.api.get('/v1/nothing-here');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ code: 'route_not_found', status: 404, title: 'Not Found', instance: '/v1/nothing-here' });
  });

  it('answers PUT with 405, Allow and a pointer to PATCH', async () => {
    const id = (await acme.api.post('/v1/sites', site)).body.id;
    const response = await acme.api.request('PUT', `/v1/sites/${id}`, site);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, PATCH');
    expect(response.body.code).toBe('method_not_allowed');
    expect(response.body.detail).toContain('PATCH');
    expect((await acme.api.request('DELETE', `/v1/sites/${id}`)).status).toBe(405);
  });

  it('answers removed endpoints 410 naming the replacement', async () => {
    const cases = {
      '/v1/readings': '/v1/measurements',
      '/v1/aggregated-readings': '/v1/aggregated-measurements',
      '/v2/contracts/123': '/v1/contracts',
      '/v1/invoice-templates': '/v1/templates',
    };
    for (const [path, replacement] of Object.entries(cases)) {
      const response = await acme.api.get(path);
      expect(response.status, path).toBe(410);
      expect(response.body.code).toBe('endpoint_removed');
      expect(response.body.detail).toContain(replacement);
    }
  });

  it('answers 415 for bodies that are not JSON, 400 for broken JSON, 413 for large bodies', async () => {
    const text = await acme.api.post('/v1/sites', 'name=x', { 'content-type': 'text/plain' });
    expect([text.status, text.body.code]).toEqual([415, 'unsupported_media_type']);
    const none = await acme.api.post('/v1/sites', 'x');
    expect(none.status).toBe(415);
    const broken = await acme.api.post('/v1/sites', '{"name":', { 'content-type': 'application/json' });
    expect([broken.status, broken.body.code]).toEqual([400, 'invalid_json']);
    const large = await acme.api.post('/v1/sites', { ...site, name: 'x'.repeat(2 * 1024 * 1024) });
    expect([large.status, large.body.code]).toEqual([413, 'payload_too_large']);
  });

  it('echoes a request id, or makes one, and puts it in problems', async () => {
    const given = await acme.api.request('GET', '/v1/sites/unknown', undefined, { 'x-request-id': 'trace-123' });
    expect(given.headers.get('x-request-id')).toBe('trace-123');
    expect(given.body.requestId).toBe('trace-123');
    const made = await acme.api.get('/v1/sites');
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('publishes an OpenAPI 3.1 document covering every route', async () => {
    const response = await app.api().get('/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    const operations = Object.entries(response.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const crud = (path: string, writable = true) => [
      `GET ${path}`,
      `GET ${path}/{id}`,
      ...(writable ? [`POST ${path}`, `PATCH ${path}/{id}`] : []),
    ];
    expect(operations.sort()).toEqual(
      [
        'POST /v1/oauth',
        'GET /v1/accounts/{id}',
        'PATCH /v1/accounts/{id}',
        ...crud('/v1/users', false),
        ...crud('/v1/sites'),
        ...crud('/v1/electricity-products'),
        ...crud('/v1/customers'),
        ...crud('/v1/meters'),
        ...crud('/v1/contracts'),
        ...crud('/v1/contract-meters'),
        ...crud('/v1/meter-balancing-settings'),
        ...crud('/v1/custom-attributes'),
        ...crud('/v1/tax-rates'),
        ...crud('/v1/price-component-groups'),
        ...crud('/v1/price-components'),
        ...crud('/v1/prices'),
        ...crud('/v1/templates'),
        ...crud('/v1/payment-methods'),
        ...crud('/v1/payments'),
        'POST /v1/payments/batch',
        ...crud('/v1/prepayment-amounts'),
        ...crud('/v1/prepayment-requests', false),
        'POST /v1/prepayment-requests',
        ...crud('/v1/events', false),
        ...crud('/v1/webhook-endpoints'),
        'DELETE /v1/webhook-endpoints/{id}',
        'POST /v1/webhook-endpoints/{id}/rotate-secret',
        'GET /v1/webhook-endpoints/{id}/deliveries',
        'GET /v1/webhook-deliveries/{id}',
        'POST /v1/webhook-deliveries/{id}/retry',
        'GET /v1/mpos',
        'GET /v1/mpos/{id}',
        'POST /v1/mpos',
        'GET /v1/measurements',
        'POST /v1/measurements',
        'GET /v1/aggregated-measurements',
        'GET /v1/aggregated-balances',
        'GET /v1/sites/{id}/balancing-status',
        ...crud('/v1/bill-runs', false),
        'POST /v1/bill-runs',
        'DELETE /v1/bill-runs/{id}',
        'POST /v1/bill-runs/{id}/complete',
        ...crud('/v1/invoices', false),
        'GET /v1/invoices/{id}/pdf',
        'GET /v1/invoices/{id}/e-invoice',
        'POST /v1/invoices/{id}/cancel',
        ...crud('/v1/line-items', false),
        ...crud('/v1/payment-runs', false),
        'POST /v1/payment-runs',
        'GET /v1/payment-runs/{id}/items',
        'GET /v1/payment-runs/{id}/file',
        'POST /v1/payment-runs/{id}/cancel',
      ].sort(),
    );
    const create = response.body.paths['/v1/sites'].post;
    expect(create.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreateSiteInput' });
    expect(response.body.components.schemas.CreateSiteInput.required).toEqual(['name', 'type', 'address']);
    expect(create.responses['201']).toBeDefined();
    expect(response.body.paths['/v1/sites'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['limit', 'offset']);
  });

  it('sends nosniff, no X-Powered-By, and no CORS headers unless origins are configured', async () => {
    const response = await acme.api.request('GET', '/v1/sites', undefined, { origin: 'https://evil.example' });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-powered-by')).toBeNull();
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('never writes tokens to the log', async () => {
    const grant = await app.api().post('/v1/oauth', { grantType: 'api_token', token: acme.apiToken });
    await app.api(grant.body.accessToken).get('/v1/sites?limit=1');
    await app.api().post('/v1/oauth', { grantType: 'refresh_token', token: grant.body.refreshToken });
    const log = app.logs.join('');
    expect(log).toContain('"path":"/v1/oauth"');
    for (const secret of [acme.apiToken, acme.accessToken, acme.refreshToken, grant.body.accessToken, grant.body.refreshToken]) {
      expect(log).not.toContain(secret);
    }
  });
});

describe('CORS for configured origins', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ CORS_ORIGINS: 'https://tools.example.com' });
  });
  afterAll(() => app.close());

  it('answers preflights and requests of listed origins only', async () => {
    const preflight = await app.api().request('OPTIONS', '/v1/sites', undefined, { origin: 'https://tools.example.com', 'access-control-request-method': 'POST' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://tools.example.com');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Authorization');
    const other = await app.api().request('GET', '/health', undefined, { origin: 'https://other.example.com' });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('rate limit', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(() => app.close());

  it('answers 429 with Retry-After and RateLimit headers per client', async () => {
    const first = await app.signUp('First', { legalProfile: false });
    const second = await app.signUp('Second', { legalProfile: false });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await first.api.get('/v1/sites')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await first.api.get('/v1/sites');
    expect(limited.body.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit-limit')).toBe('5');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect((await second.api.get('/v1/sites')).status).toBe(200);
  });
});
