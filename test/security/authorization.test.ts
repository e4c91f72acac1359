import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import type { Api } from '../support/http.js';
import { buildWorld, fixtureFor, PUBLIC_OPERATIONS, REFERENCE_FIELDS, REGISTRY, urlIn, type World } from '../support/registry.js';

interface Operation {
  method: string;
  path: string;
  key: string;
  hasBody: boolean;
}

/** Every operation of the OpenAPI document, checked against the fixture registry. */
describe('authorization of every REST operation and GraphQL field', () => {
  let app: TestApp;
  let a: SignedUp;
  let b: SignedUp;
  let viewer: Api;
  let worldA: World;
  let worldB: World;
  let operations: Operation[];


  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
    a = await app.signUp('A');
    b = await app.signUp('B');
    const viewerCredentials = await app.cli('user', 'create', '--account', a.accountId, '--email', 'viewer@a.test', '--role', 'viewer');
    const grant = await app.api().post('/v1/oauth', { grantType: 'api_token', token: viewerCredentials.apiToken });
    viewer = app.api(grant.body.accessToken);
    worldA = await buildWorld(a);
    worldB = await buildWorld(b);
    const document = (await app.api().get('/v1/openapi.json')).body;
    operations = Object.entries(document.paths as Record<string, Record<string, { requestBody?: unknown }>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, key: `${method.toUpperCase()} ${path}`, hasBody: Boolean(op.requestBody) })),
    );
  });
  afterAll(() => app.close());

  const secured = () => operations.filter((op) => !PUBLIC_OPERATIONS.includes(op.key));

  it('has a fixture for every operation of the OpenAPI document', () => {
    expect(operations.length).toBeGreaterThan(30);
    const missing = secured().filter((op) => !fixtureFor(op.path));
    expect(missing.map((op) => op.key)).toEqual([]);
  });

  it('answers 401 without a token, with a malformed one and with a foreign-signed one', async () => {
    const foreign = await new SignJWT({ acc: a.accountId, role: 'admin', cid: a.clientId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(a.userId)
      .setIssuer('ebbs')
      .setAudience('ebbs-api')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('somebody-elses-secret-somebody-elses-secret'));
    for (const op of secured()) {
      for (const token of [undefined, 'malformed.token.value', foreign]) {
        const response = await app.api(token).request(op.method, urlIn(op.path, worldA), op.hasBody ? {} : undefined);
        expect(response.status, `${op.key} with ${token ? 'a bad' : 'no'} token`).toBe(401);
      }
    }
  });

  it('refuses every write of a viewer with 403 and writes nothing', async () => {
    const writes = secured().filter((op) => op.method !== 'GET');
    expect(writes.length).toBeGreaterThan(10);
    for (const op of writes) {
      const fixture = fixtureFor(op.path)!;
      const path = urlIn(op.path, worldA);
      const collection = fixture.collection?.(worldA) ?? urlIn(op.path.replace('/{id}', ''), worldA);
      const before = op.method === 'POST' ? (await a.api.get(collection)).body.total : (await a.api.get(path)).body;
      const body = op.method === 'POST' ? await fixture.createBody!(worldA, a.api) : fixture.patchBody;
      const response = await viewer.request(op.method, path, body);
      expect([response.status, response.body.code], op.key).toEqual([403, 'forbidden']);
      const after = op.method === 'POST' ? (await a.api.get(collection)).body.total : (await a.api.get(path)).body;
      expect(after, op.key).toEqual(before);
    }
    for (const op of secured().filter((o) => o.method === 'GET')) {
      expect((await viewer.get(urlIn(op.path, worldA))).status, op.key).toBe(200);
    }
  });

  it("answers 404 to another account's ids, for reads and writes, and leaves the data unchanged", async () => {
    const byId = secured().filter((op) => op.path.includes('{id}'));
    for (const op of byId) {
      const path = urlIn(op.path, worldA);
      // The resource the operation acts on, read before and after (`/{id}/retry` reads `/{id}`).
      const resource = urlIn(op.path.replace(/\{id\}.*$/, '{id}'), worldA);
      const before = (await a.api.get(resource)).body;
      const response = await b.api.request(op.method, path, op.method === 'PATCH' ? fixtureFor(op.path)!.patchBody : undefined);
      expect(response.status, op.key).toBe(404);
      // Indistinguishable from an id that exists nowhere.
      const unknown = await b.api.request(op.method, path.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/, '00000000-0000-4000-8000-000000000000'), op.method === 'PATCH' ? fixtureFor(op.path)!.patchBody : undefined);
      expect(unknown.status, op.key).toBe(404);
      expect(response.body.code, op.key).toBe(unknown.body.code);
      expect((await a.api.get(resource)).body, op.key).toEqual(before);
    }
  });

  it("answers 400 reference_not_found for another account's ids in every reference field", async () => {
    let checked = 0;
    for (const op of secured().filter((o) => o.method === 'POST')) {
      const fixture = fixtureFor(op.path)!;
      const valid = await fixture.createBody!(worldA, a.api);
      for (const [field, resource] of Object.entries(REFERENCE_FIELDS)) {
        if (!(field in valid)) continue;
        const collection = fixture.collection?.(worldA) ?? urlIn(op.path, worldA);
        const before = (await a.api.get(collection)).body.total;
        const response = await a.api.post(urlIn(op.path, worldA), { ...valid, [field]: worldB[resource] });
        expect(response.status, `${op.key} ${field}`).toBe(400);
        expect(response.body.errors, `${op.key} ${field}`).toContainEqual({ path: field, code: 'reference_not_found', message: expect.any(String) });
        expect((await a.api.get(collection)).body.total).toBe(before);
        checked++;
      }
      const created = await a.api.post(urlIn(op.path, worldA), valid);
      expect([200, 201, 202], `${op.key} fixture body is valid: ${JSON.stringify(created.body)}`).toContain(created.status);
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  });

  describe('GraphQL', () => {
    let fields: { query: Array<{ name: string; args: string[] }>; mutation: string[] };
    const graphqlFixtures = () => Object.values(REGISTRY).flatMap((f) => (f.graphql ? [f.graphql] : []));
    const selection = (name: string) => (graphqlFixtures().some((g) => g.many === name) ? '{ total }' : '{ id }');

    beforeAll(async () => {
      const introspection = await a.api.graphql('{ __schema { queryType { fields { name args { name } } } mutationType { fields { name } } } }');
      const schema = introspection.body.data.__schema;
      fields = {
        query: schema.queryType.fields.map((f: { name: string; args: Array<{ name: string }> }) => ({ name: f.name, args: f.args.map((x) => x.name) })),
        mutation: schema.mutationType.fields.map((f: { name: string }) => f.name),
      };
    });

    it('has a fixture for every query and mutation', () => {
      const known = new Set(graphqlFixtures().flatMap((g) => [g.one, g.many, g.create, g.update, g.batch, ...(g.actions ?? [])].filter(Boolean)));
      expect([...fields.query.map((f) => f.name), ...fields.mutation].filter((name) => !known.has(name))).toEqual([]);
    });

    it('needs a token for every field', async () => {
      for (const { name } of fields.query) {
        const response = await app.api().graphql(`{ ${name} ${selection(name)} }`);
        expect(response.status, name).toBe(401);
      }
    });

    it('refuses every mutation of a viewer with forbidden', async () => {
      for (const name of fields.mutation) {
        const isUpdate = graphqlFixtures().some((g) => g.update === name);
        const isBatch = graphqlFixtures().some((g) => g.batch === name);
        const isAction = graphqlFixtures().some((g) => g.actions?.includes(name));
        const fixture = Object.values(REGISTRY).find((f) => [f.graphql?.create, f.graphql?.update, f.graphql?.batch, ...(f.graphql?.actions ?? [])].includes(name))!;
        const id = worldA[fixture.instance!];
        const args = isAction ? `(id: "${id}")` : isUpdate ? `(id: "${id}", input: {})` : '(input: {})';
        const response = await viewer.graphql(`mutation { ${name}${args} ${isBatch ? '{ total }' : '{ id }'} }`);
        expect(response.body.errors?.[0]?.extensions?.code, name).toBe('forbidden');
      }
    });

    it("answers not found to another account's ids in queries, updates and actions", async () => {
      for (const fixture of Object.values(REGISTRY)) {
        if (!fixture.graphql) continue;
        const id = worldA[fixture.instance!];
        const read = await b.api.graphql(`query($id: ID!) { ${fixture.graphql.one}(id: $id) { id } }`, { id });
        expect(read.body.errors?.[0]?.extensions?.code, fixture.graphql.one).toMatch(/_not_found$/);
        if (fixture.graphql.update) {
          const write = await b.api.graphql(`mutation($id: ID!) { ${fixture.graphql.update}(id: $id, input: {}) { id } }`, { id });
          expect(write.body.errors?.[0]?.extensions?.code, fixture.graphql.update).toMatch(/_not_found$/);
        }
        for (const action of fixture.graphql.actions ?? []) {
          const acted = await b.api.graphql(`mutation($id: ID!) { ${action}(id: $id) { id } }`, { id });
          expect(acted.body.errors?.[0]?.extensions?.code, action).toMatch(/_not_found$/);
        }
      }
    });
  });

  it('never logs a token or a secret', () => {
    const log = app.logs.join('');
    expect(log.length).toBeGreaterThan(1000);
    expect(log).not.toMatch(/ebbs_(api|rt)_[A-Za-z0-9_-]{20,}/);
    expect(log).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.eyJ/);
    expect(log).not.toMatch(/\b[A-Z]{2}\d{2}[A-Z0-9]{11,30}\b/);
  });
});
