import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_JWT_SECRET, TEST_WEBHOOK_KEY, type SignedUp, type TestApp } from '../support/app.js';
import { queryRows } from '../support/database.js';
import { create, expectRejected, fixtures } from '../support/fixtures.js';
import { spawnEbbs } from '../support/process.js';
import { startReceiver, type Answer, type Received } from '../support/receiver.js';

const FAST = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_POLL_SECONDS: '0.1',
  WEBHOOK_RETRY_BASE_SECONDS: '0.2',
  WEBHOOK_RETRY_CAP_SECONDS: '0.4',
  WEBHOOK_MAX_ATTEMPTS: '4',
  WEBHOOK_TIMEOUT_MS: '1500',
  WEBHOOK_LEASE_SECONDS: '3',
  QUEUE_POLL_SECONDS: '0.5',
  RATE_LIMIT_PER_MINUTE: '100000',
};

describe('webhooks', () => {
  let app: TestApp;
  let a: SignedUp;
  const receivers: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    app = await startTestApp(FAST);
    a = await app.signUp('A');
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await app.close();
  });

  const receiver = async (answer?: (request: Received, index: number) => Answer) => {
    const started = await startReceiver(answer);
    receivers.push(started);
    return started;
  };
  const endpoint = (url: string, extra: Record<string, unknown> = {}) => create(a.api, '/v1/webhook-endpoints', { url, events: ['*'], ...extra });
  const deliveriesOf = async (endpointId: string) => (await a.api.get(`/v1/webhook-endpoints/${endpointId}/deliveries?limit=1000`)).body.data;
  const settled = async (endpointId: string, count: number) => {
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
      const log = await deliveriesOf(endpointId);
      if (log.length >= count && log.every((d: { state: string }) => d.state !== 'pending')) return log;
    }
    throw new Error(`deliveries of ${endpointId} did not settle`);
  };

  it('signs every delivery the Standard Webhooks way and sends the envelope of GET /v1/events', async () => {
    const hooks = await receiver();
    const created = await endpoint(hooks.url, { headers: { 'X-Partner-Key': 'abc' } });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect((await a.api.get(`/v1/webhook-endpoints/${created.id}`)).body.secret).toBeUndefined();
    const site = await fixtures.site(a.api);
    await a.api.patch(`/v1/sites/${site.id}`, { name: 'Renamed' });
    await hooks.until(() => hooks.received.length >= 2);
    const verifier = new Webhook(created.secret);
    for (const request of hooks.received) {
      const payload = verifier.verify(request.body, request.headers as Record<string, string>) as Record<string, any>;
      expect(request.headers['webhook-id']).toBe(payload.id);
      expect(request.headers['x-partner-key']).toBe('abc');
      expect(request.headers['content-type']).toBe('application/json');
      expect(payload).toEqual((await a.api.get(`/v1/events/${payload.id}`)).body);
    }
    expect(hooks.events().map((e) => e.type)).toEqual(['site.created', 'site.updated']);
    expect(() => new Webhook(`whsec_${Buffer.from('another secret entirely!!').toString('base64')}`).verify(hooks.received[0]!.body, hooks.received[0]!.headers as Record<string, string>)).toThrow();
  });

  it('retries with backoff: failing twice then succeeding gives one accepted delivery and three logged attempts', async () => {
    const hooks = await receiver((_request, index) => (index < 2 ? 500 : 200));
    const { id } = await endpoint(hooks.url, { events: ['customer.created'] });
    await fixtures.customer(a.api);
    const [delivery] = await settled(id, 1);
    expect(hooks.received).toHaveLength(3);
    expect(new Set(hooks.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(delivery).toMatchObject({ state: 'delivered', eventType: 'customer.created', nextAttemptAt: null });
    expect(delivery.attempts.map((t: { statusCode: number }) => t.statusCode)).toEqual([500, 500, 200]);
    expect(delivery.attempts[0].error).toBe('HTTP 500');
    expect(delivery.attempts.every((t: { durationMs: number }) => Number.isInteger(t.durationMs))).toBe(true);
    const gaps = hooks.received.slice(1).map((r, i) => r.at - hooks.received[i]!.at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(150);
  });

  it('fails the job when attempts cannot be recorded, and sends the deliveries again once they can', async () => {
    const hooks = await receiver();
    const { id } = await endpoint(hooks.url, { events: ['customer.created'] });
    await queryRows(
      app.database.url,
      `create function fail_record() returns trigger language plpgsql as $$ begin if new.endpoint_id = '${id}' then raise exception 'injected failure'; end if; return new; end $$;
       create trigger fail_record before update on webhook_deliveries for each row execute function fail_record();`,
    );
    try {
      await fixtures.customer(a.api);
      // Sent, its attempt not recorded, so it is still pending and sent again by the job's retry.
      await hooks.until(() => hooks.received.length >= 2);
    } finally {
      await queryRows(app.database.url, 'drop trigger fail_record on webhook_deliveries; drop function fail_record()');
    }
    const [delivery] = await settled(id, 1);
    expect(delivery).toMatchObject({ state: 'delivered', eventType: 'customer.created' });
    expect(new Set(hooks.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([delivery.eventId]));
  });

  it('marks a delivery failed after the last attempt, and replays it on request', async () => {
    let healthy = false;
    const hooks = await receiver(() => (healthy ? 200 : 503));
    const { id } = await endpoint(hooks.url, { events: ['customer.created'] });
    await fixtures.customer(a.api);
    const [failed] = await settled(id, 1);
    expect(failed).toMatchObject({ state: 'failed', nextAttemptAt: null });
    expect(failed.attempts).toHaveLength(4);
    healthy = true;
    const retried = await a.api.post(`/v1/webhook-deliveries/${failed.id}/retry`, {});
    expect([retried.status, retried.body.state]).toEqual([202, 'pending']);
    const [delivered] = await settled(id, 1);
    expect(delivered.state).toBe('delivered');
    expect(delivered.attempts.map((t: { statusCode: number }) => t.statusCode)).toEqual([503, 503, 503, 503, 200]);
    expect(new Set(hooks.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
  });

  it('keeps the order of one entity while a failed delivery waits, and lets other entities pass', async () => {
    const failFirst = new Set<string>();
    const hooks = await receiver((request) => {
      const event = JSON.parse(request.body);
      if (event.type === 'site.created' && event.data.name === 'First' && !failFirst.has(event.id)) {
        failFirst.add(event.id);
        return 500;
      }
      return 200;
    });
    const { id } = await endpoint(hooks.url, { events: ['site.created', 'site.updated'] });
    const first = await fixtures.site(a.api, { name: 'First' });
    await a.api.patch(`/v1/sites/${first.id}`, { name: 'First, renamed' });
    const second = await fixtures.site(a.api, { name: 'Second' });
    await settled(id, 3);
    const accepted = hooks.received.filter((_r, index) => index !== hooks.received.findIndex((r) => failFirst.has(JSON.parse(r.body).id)));
    const order = accepted.map((r) => JSON.parse(r.body)).map((e) => `${e.data.id === first.id ? 'first' : 'second'} ${e.type}`);
    expect(order.filter((o) => o.startsWith('first'))).toEqual(['first site.created', 'first site.updated']);
    expect(order).toContain('second site.created');
    expect(second.id).toBeDefined();
  });

  it('does not let a receiver that never answers hold up another endpoint', async () => {
    const dead = await receiver(() => 'hang');
    const alive = await receiver();
    const slow = await endpoint(dead.url, { events: ['meter.created'] });
    await endpoint(alive.url, { events: ['meter.created'] });
    const site = await fixtures.site(a.api);
    await fixtures.meter(a.api, site.id);
    await alive.until(() => alive.received.length === 1);
    await dead.until(() => dead.received.length === 1);
    // The live endpoint got its delivery while the dead one's request was still waiting for its timeout.
    expect(alive.received[0]!.at - dead.received[0]!.at).toBeLessThan(1500);
    const [attempt] = await (async () => {
      for (;;) {
        const log = await deliveriesOf(slow.id);
        if (log[0]?.attempts.length) return log[0].attempts;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    expect(attempt).toMatchObject({ statusCode: null, error: 'No response within 1500 ms.' });
    await a.api.patch(`/v1/webhook-endpoints/${slow.id}`, { enabled: false });
  });

  it('only sends what an enabled endpoint subscribed to', async () => {
    const hooks = await receiver();
    const { id } = await endpoint(hooks.url, { events: ['contract.created'] });
    const disabled = await endpoint(hooks.url, { events: ['*'], enabled: false });
    await fixtures.site(a.api);
    const [row] = await queryRows(app.database.url, 'select count(*)::int as n from webhook_deliveries where endpoint_id = any($1::uuid[])', [[id, disabled.id]]);
    expect(row!.n).toBe(0);
  });

  it('signs with both secrets for a day after a rotation', async () => {
    const hooks = await receiver();
    const created = await endpoint(hooks.url, { events: ['customer.created'] });
    const rotated = await a.api.post(`/v1/webhook-endpoints/${created.id}/rotate-secret`, {});
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(created.secret);
    await fixtures.customer(a.api);
    await hooks.until(() => hooks.received.length === 1);
    const [request] = hooks.received;
    expect(String(request!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [created.secret, rotated.body.secret]) new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>);
    const [stored] = await queryRows(app.database.url, 'select secret, previous_secret from webhook_endpoints where id = $1', [created.id]);
    expect(JSON.stringify(stored)).not.toContain(rotated.body.secret.slice(6));
  });

  it('validates endpoints', async () => {
    const body = { url: 'https://hooks.example.com/x', events: ['site.created'] };
    await expectRejected(a.api, { path: '/v1/webhook-endpoints', body: { ...body, events: ['site.exploded'] } }, { status: 400, code: 'invalid_value', path: 'events[0]' });
    await expectRejected(a.api, { path: '/v1/webhook-endpoints', body: { ...body, events: [] } }, { status: 400, code: 'too_small', path: 'events' });
    await expectRejected(a.api, { path: '/v1/webhook-endpoints', body: { ...body, headers: { 'webhook-signature': 'x' } } }, { status: 400, code: 'reserved_header', path: 'headers.webhook-signature' });
    await expectRejected(a.api, { path: '/v1/webhook-endpoints', body: { ...body, url: 'ftp://hooks.example.com' } }, { status: 400, code: 'invalid_format', path: 'url' });
    const deleted = await endpoint('https://hooks.example.com/gone');
    expect((await a.api.delete(`/v1/webhook-endpoints/${deleted.id}`)).status).toBe(204);
    expect((await a.api.get(`/v1/webhook-endpoints/${deleted.id}`)).status).toBe(404);
  });
});

describe('webhook targets without WEBHOOK_ALLOW_PRIVATE_TARGETS', () => {
  let app: TestApp;
  let a: SignedUp;

  beforeAll(async () => {
    app = await startTestApp();
    a = await app.signUp('A');
  });
  afterAll(() => app.close());

  it('refuses http and private, loopback or link-local targets with a clear error', async () => {
    for (const url of ['http://hooks.example.com/x', 'https://127.0.0.1/x', 'https://10.1.2.3/x', 'https://169.254.169.254/latest', 'https://[::1]/x', 'https://localhost/x']) {
      const problem = await expectRejected(a.api, { path: '/v1/webhook-endpoints', body: { url, events: ['*'] } }, { status: 400, code: 'webhook_target_not_allowed', path: 'url' });
      expect(problem.errors[0].message.length).toBeGreaterThan(10);
    }
    const refused = (url: string) => expectRejected(a.api, { path: '/v1/webhook-endpoints', body: { url, events: ['*'] } }, { status: 400, code: 'webhook_target_not_allowed', path: 'url' });
    const dotted = await refused('https://localhost./x');
    expect(dotted.errors).toEqual((await refused('https://localhost/x')).errors);
    expect(dotted.errors).toEqual([{ path: 'url', code: 'webhook_target_not_allowed', message: 'localhost is not a public address.' }]);
    await create(a.api, '/v1/webhook-endpoints', { url: 'https://hooks.example.com/x', events: ['*'] });
  });
});

describe('webhook deliveries across a worker crash', () => {
  let app: TestApp;
  let a: SignedUp;

  beforeAll(async () => {
    app = await startTestApp({ ...FAST, WORKER: 'off' });
    a = await app.signUp('A');
  });
  afterAll(() => app.close());

  it('redelivers what a killed worker had in flight: at least once, never dropped', async () => {
    const hooks = await startReceiver((_request, index) => (index === 0 ? 'hang' : 200));
    try {
      const { id } = await create(a.api, '/v1/webhook-endpoints', { url: hooks.url, events: ['customer.created'] });
      await fixtures.customer(a.api);
      const env = { ...FAST, DATABASE_URL: app.database.url, JWT_SECRET: TEST_JWT_SECRET, WEBHOOK_SECRET_KEY: TEST_WEBHOOK_KEY };
      const first = spawnEbbs(['worker'], env);
      await hooks.until(() => hooks.received.length === 1, 30_000);
      const exited = new Promise((resolve) => first.on('exit', resolve));
      first.kill('SIGKILL');
      await exited;
      const second = spawnEbbs(['worker'], env);
      try {
        await hooks.until(() => hooks.received.length === 2, 30_000);
        for (let log = await a.api.get(`/v1/webhook-endpoints/${id}/deliveries`); ; log = await a.api.get(`/v1/webhook-endpoints/${id}/deliveries`)) {
          if (log.body.data[0].state === 'delivered') {
            expect(log.body.data[0].attempts.map((t: { statusCode: number }) => t.statusCode)).toEqual([200]);
            break;
          }
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(hooks.received[1]!.headers['webhook-id']).toBe(hooks.received[0]!.headers['webhook-id']);
      } finally {
        second.kill('SIGTERM');
        await new Promise((resolve) => second.on('exit', resolve));
      }
    } finally {
      await hooks.close();
    }
  }, 90_000);
});
