import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApp, TEST_JWT_SECRET, TEST_WEBHOOK_KEY, type SignedUp, type TestApp } from '../support/app.js';
import { createTestDatabase } from '../support/database.js';
import { fixtures } from '../support/fixtures.js';
import { Api } from '../support/http.js';
import { runEbbs, startEbbs } from '../support/process.js';

/** The resident set of another process, as the kernel counts it. */
function residentBytes(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
}

/** `sites { data { meters { site { meters { site … } } } } }`, `levels` relations deep. */
function cyclicQuery(levels: number): string {
  let selection = 'id';
  for (let level = levels; level > 0; level--) selection = level % 2 === 1 ? `meters { ${selection} }` : `site { ${selection} }`;
  return `{ sites { data { ${selection} } } }`;
}

const aliasedContracts = (count: number, limit = 1000) =>
  `{ ${Array.from({ length: count }, (_, i) => `c${i}: contracts(limit: ${limit}) { data { id } }`).join(' ')} }`;

/** Every operation is costed before any resolver runs (a paging field: its limit times its selection). */
describe('GraphQL limits', () => {
  let app: TestApp;
  let a: SignedUp;
  const statements: string[] = [];

  beforeAll(async () => {
    app = await startTestApp({ WORKER: 'off', RATE_LIMIT_PER_MINUTE: '100000' }, { onQuery: (sql) => statements.push(sql) });
    a = await app.signUp();
    const site = await fixtures.site(a.api, { name: 'Haus A' });
    for (let i = 0; i < 3; i++) await fixtures.meter(a.api, site.id);
  });
  afterAll(() => app.close());

  function expectTooComplex(response: { status: number; body: any }, cost: unknown = expect.any(Number)) {
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(response.body.data).toBeUndefined();
    expect(response.body.errors).toEqual([
      { message: expect.stringMatching(/^Query too complex: /), extensions: { code: 'query_too_complex', cost, maxCost: 10_000, maxDepth: 8, maxAliases: 50 } },
    ]);
  }

  it('refuses the cyclic query at depth 25 and 1,000 aliases twenty times, fast, in a server process that does not grow', async () => {
    const database = await createTestDatabase(inject('templateDatabase'));
    // A bounded heap: V8 sizes its heap by the machine's memory and defers collection while it may
    // grow, so an unbounded process can grow by tens of megabytes per block without leaking (seen on
    // a CI machine). With a bound it collects instead, and a leak ends in an out-of-memory exit.
    const env = {
      DATABASE_URL: database.url, JWT_SECRET: TEST_JWT_SECRET, WEBHOOK_SECRET_KEY: TEST_WEBHOOK_KEY, PORT: '0', HOST: '127.0.0.1', WORKER: 'off',
      NODE_OPTIONS: '--max-semi-space-size=1 --max-old-space-size=192',
    };
    const server = await startEbbs(env);
    try {
      const account = JSON.parse((await runEbbs(['account', 'create', '--company-name', 'Probe', '--email', 'probe@example.test'], env)).stdout);
      const grant = await new Api(server.url).post('/v1/oauth', { grantType: 'api_token', token: account.apiToken });
      const api = new Api(server.url, grant.body.accessToken);
      const queries = [cyclicQuery(23), aliasedContracts(1000)];
      // The first requests size the heap (once per process); what must not happen is growth with
      // every refused request.
      for (let round = 0; round < 10; round++) for (const query of queries) expectTooComplex(await api.graphql(query));
      const elapsed: number[] = [];
      /** Twenty rounds of both queries; answers how much the server's resident memory grew meanwhile. */
      const block = async (): Promise<number> => {
        const before = residentBytes(server.child.pid!);
        for (let round = 0; round < 20; round++) {
          for (const query of queries) {
            const started = performance.now();
            const response = await api.graphql(query);
            elapsed.push(performance.now() - started);
            expectTooComplex(response);
          }
        }
        return residentBytes(server.child.pid!) - before;
      };
      const growth = [await block(), await block(), await block(), await block()];
      // The median, not each one: other test files share the two cores, so a single request may
      // wait for the CPU; a refusal that did the work would take seconds every time.
      expect(elapsed.sort((a, b) => a - b)[elapsed.length >> 1]).toBeLessThan(100);
      expect(elapsed.at(-1)).toBeLessThan(1000);
      // A leak grows every block; a heap settling after the warm-up grows one at most (seen: 0.3 MB).
      expect(Math.min(...growth), `growth per block: ${growth.join(', ')} bytes`).toBeLessThan(4 * 1024 * 1024);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await database.drop();
    }
  });

  it('costs paging fields at their limit times their selection, and refuses before any resolver runs', async () => {
    statements.length = 0;
    // 1,000 sites x 100 meters x 1 field = 100,000 points.
    expectTooComplex(await a.api.graphql('{ sites(limit: 1000) { data { meters { id } } } }'), 100_000);
    expect(statements.filter((sql) => /\b(sites|meters)\b/.test(sql))).toEqual([]);
    // Variables count like literals.
    expectTooComplex(await a.api.graphql('query($n: Int) { sites(limit: $n) { data { meters(limit: 11) { id } } } }', { n: 1000 }), 11_000);

    const accepted = await a.api.graphql('query($n: Int) { sites(limit: $n) { data { meters(limit: 11) { id } } } }', { n: 900 });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.sites.data[0].meters).toHaveLength(3);
    // The default page of a default page just fits: 100 x 100 x 1.
    expect((await a.api.graphql('{ sites { data { meters { id } } } }')).body.data.sites.data).toHaveLength(1);
  });

  it('refuses operations deeper than 8 field levels or with more than 50 aliases', async () => {
    expectTooComplex(await a.api.graphql(`{ sites(limit: 1) { data { ${'meters(limit: 1) { site { '.repeat(3)} id ${'} } '.repeat(3)} } } }`));
    const eight = await a.api.graphql(`{ sites(limit: 1) { data { meters(limit: 1) { site { meters(limit: 1) { site { meters(limit: 1) { id } } } } } } } }`);
    expect(eight.status, JSON.stringify(eight.body)).toBe(200);
    // Fragments count where they are spread.
    const viaFragments = await a.api.graphql(
      `{ sites(limit: 1) { data { ...A } } } fragment A on Site { meters(limit: 1) { site { ...B } } } fragment B on Site { meters(limit: 1) { site { meters(limit: 1) { site { id } } } } }`,
    );
    expectTooComplex(viaFragments);

    expectTooComplex(await a.api.graphql(aliasedContracts(51, 1)));
    expect((await a.api.graphql(aliasedContracts(50, 1))).status).toBe(200);
  });

  it('pages nested list relations with limit and offset, validated like root lists', async () => {
    const all = await a.api.graphql('{ sites { data { meters { id } } } }');
    const ids = all.body.data.sites.data[0].meters.map((m: { id: string }) => m.id);
    expect(ids).toHaveLength(3);
    const page = await a.api.graphql('{ sites { data { meters(limit: 1, offset: 1) { id } } } }');
    expect(page.body.data.sites.data[0].meters).toEqual([{ id: ids[1] }]);
    const bad = await a.api.graphql('{ sites { data { meters(limit: 0) { id } } } }');
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'validation_failed', errors: [{ path: 'limit', code: 'out_of_range' }] });
  });

  it('logs every request when it starts and when it ends', async () => {
    const response = await a.api.graphql('{ sites { total } }');
    const requestId = response.headers.get('x-request-id');
    const lines = app.logs.map((line) => JSON.parse(line)).filter((line) => line.requestId === requestId);
    expect(lines.map((line) => line.msg)).toEqual(['request started', 'request']);
    expect(lines[1]).toMatchObject({ path: '/graphql', status: 200, graphqlCost: 100 });
  });
});
