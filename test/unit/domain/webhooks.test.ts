import fc from 'fast-check';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE, retryDelaySeconds } from '../../../core/domain/webhooks/retry-schedule.js';
import { generateSecret, signatureHeader } from '../../../core/domain/webhooks/signature.js';
import { byEntity } from '../../../core/domain/webhooks/webhook.js';
import { HttpWebhookSender, MAX_RESPONSE_BYTES } from '../../../core/webhooks/http-sender.js';
import { SecretBox } from '../../../core/webhooks/secret-box.js';
import { TargetPolicy } from '../../../core/webhooks/target-policy.js';

describe('webhook signatures', () => {
  it('verify with the standardwebhooks reference implementation, for any body', () => {
    fc.assert(
      fc.property(fc.string(), fc.uuid(), fc.integer({ min: 1_700_000_000, max: 1_900_000_000 }), (body, id, timestamp) => {
        const secret = generateSecret();
        const headers = { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatureHeader([secret], id, timestamp, body) };
        const verifier = new Webhook(secret);
        // The reference rejects old timestamps; its signature check is what is compared here.
        expect(verifier.sign(id, new Date(timestamp * 1000), body)).toBe(headers['webhook-signature']);
      }),
      { numRuns: 50 },
    );
  });
});

describe('retry schedule', () => {
  it('spreads the default attempts over about three days, then stops', () => {
    const delays = Array.from({ length: DEFAULT_RETRY_SCHEDULE.maxAttempts }, (_, i) => retryDelaySeconds(DEFAULT_RETRY_SCHEDULE, i + 1, 0.5));
    expect(delays.at(-1)).toBeNull();
    const total = delays.slice(0, -1).reduce<number>((sum, d) => sum + d!, 0);
    expect(total / 86_400).toBeGreaterThan(2.8);
    expect(total / 86_400).toBeLessThan(3.2);
  });

  it('grows exponentially within ±20 % jitter and never beyond the cap', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 18 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), (attempts, random) => {
        const delay = retryDelaySeconds(DEFAULT_RETRY_SCHEDULE, attempts, random)!;
        const nominal = Math.min(DEFAULT_RETRY_SCHEDULE.capSeconds, DEFAULT_RETRY_SCHEDULE.baseSeconds * 2 ** (attempts - 1));
        expect(delay).toBeGreaterThanOrEqual(nominal * 0.8);
        expect(delay).toBeLessThan(nominal * 1.2 + 1e-9);
      }),
    );
  });

  it('groups deliveries by entity, keeping event order within each', () => {
    const grouped = byEntity([
      { id: 1, entityId: 'a' },
      { id: 2, entityId: 'b' },
      { id: 3, entityId: 'a' },
    ]);
    expect(grouped.map((group) => group.map((d) => d.id))).toEqual([[1, 3], [2]]);
  });
});

describe('secrets at rest', () => {
  it('round-trip under the key and fail under another', () => {
    const box = new SecretBox('k'.repeat(40));
    const sealed = box.seal('whsec_abc');
    expect(sealed).not.toContain('whsec_abc');
    expect(box.open(sealed)).toBe('whsec_abc');
    expect(() => new SecretBox('x'.repeat(40)).open(sealed)).toThrow();
  });
});

describe('webhook targets', () => {
  it('allow public https targets only, unless private ones are allowed', async () => {
    const strict = new TargetPolicy(false);
    for (const url of ['http://8.8.8.8/x', 'https://127.0.0.1/x', 'https://192.168.1.5/x', 'https://100.64.0.1/x', 'https://[fe80::1]/x', 'https://localhost:8443/x']) {
      expect(await strict.problemWith(url), url).not.toBeNull();
    }
    expect(await strict.problemWith('https://8.8.8.8/hooks')).toBeNull();
    expect(await new TargetPolicy(true).problemWith('http://127.0.0.1:8080/x')).toBeNull();
  });

  it('read a host with a trailing dot as the same name without it', async () => {
    const strict = new TargetPolicy(false);
    const cases: Array<[dotted: string, plain: string]> = [
      ['https://localhost./x', 'https://localhost/x'],
      ['https://LOCALHOST../x', 'https://localhost/x'],
      ['https://hooks.localhost./x', 'https://hooks.localhost/x'],
      ['https://127.0.0.1./x', 'https://127.0.0.1/x'],
    ];
    for (const [dotted, plain] of cases) {
      const problem = await strict.problemWith(dotted);
      expect(problem, dotted).toMatch(/is not a public address/);
      expect(problem, dotted).toBe(await strict.problemWith(plain));
    }
  });

  it('are checked again when a delivery is sent', async () => {
    const sender = new HttpWebhookSender({ allowPrivateTargets: false, timeoutMs: 1000, maxSockets: 1 });
    try {
      expect((await sender.send({ url: 'http://127.0.0.1:9/x', headers: {}, body: '{}' })).error).toBe('Only https targets are allowed.');
      const blocked = await sender.send({ url: 'https://127.0.0.1:9/x', headers: {}, body: '{}' });
      expect(blocked.statusCode).toBeNull();
      expect(blocked.error).toMatch(/not allowed/);
    } finally {
      sender.close();
    }
  });
});

describe('webhook responses', () => {
  const servers: Server[] = [];
  const serve = async (handler: RequestListener) => {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  };
  const sending = async (url: string) => {
    const sender = new HttpWebhookSender({ allowPrivateTargets: true, timeoutMs: 5000, maxSockets: 1 });
    try {
      return await sender.send({ url, headers: {}, body: '{}' });
    } finally {
      sender.close();
    }
  };
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('do not follow redirects: a 3xx is a failed attempt', async () => {
    let followed = 0;
    const elsewhere = await serve((_req, res) => {
      followed++;
      res.end();
    });
    const response = await sending(await serve((_req, res) => res.writeHead(307, { location: elsewhere }).end()));
    expect(response).toMatchObject({ statusCode: 307, error: 'HTTP 307' });
    expect(followed).toBe(0);
  });

  it(`are read up to ${MAX_RESPONSE_BYTES} bytes, then dropped`, async () => {
    let written = 0;
    const url = await serve((_req, res) => {
      res.writeHead(200);
      // An endless body: without the limit the attempt would wait for its timeout.
      const more = () => {
        while (!res.destroyed && res.write(Buffer.alloc(16 * 1024))) written += 16 * 1024;
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    });
    const response = await sending(url);
    expect(response).toMatchObject({ statusCode: 200, error: null });
    expect(response.durationMs).toBeLessThan(2000);
    expect(written).toBeGreaterThan(MAX_RESPONSE_BYTES);
  });
});
