import { Writable } from 'node:stream';
import { pino } from 'pino';
import { inject } from 'vitest';
import { parseCli } from '../../app/cli.js';
import { loadConfig, type Config } from '../../app/config.js';
import { startServer } from '../../app/server.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { sellerProfile } from './fixtures.js';
import { Api } from './http.js';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
export const TEST_WEBHOOK_KEY = 'test-key-for-webhook-secrets-at-rest-0123456789';

export interface TestApp {
  url: string;
  config: Config;
  database: TestDatabase;
  /** Every log line the server wrote. */
  logs: string[];
  /** A new account through the CLI code path, signed in: an Api with an access token. */
  /** A new account and its admin's session; with a complete seller profile unless `legalProfile` is false. */
  signUp(companyName?: string, options?: { legalProfile?: boolean }): Promise<SignedUp>;
  cli(...args: string[]): Promise<Record<string, string>>;
  api(token?: string): Api;
  close(): Promise<void>;
}

export interface SignedUp {
  accountId: string;
  userId: string;
  apiToken: string;
  accessToken: string;
  refreshToken: string;
  clientId: string;
  api: Api;
}

export async function startTestApp(env: Record<string, string> = {}, hooks: { onQuery?: (sql: string, params: readonly unknown[]) => void } = {}): Promise<TestApp> {
  const database = await createTestDatabase(inject('templateDatabase'));
  const config = loadConfig({
    DATABASE_URL: database.url,
    JWT_SECRET: TEST_JWT_SECRET,
    WEBHOOK_SECRET_KEY: TEST_WEBHOOK_KEY,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    DB_POOL_SIZE: '4',
    // Invoices render in the app's own thread: two files run at a time on two cores, and a render
    // pool would start threads (a worker waits for them) that most files never use. The pool is
    // tested on its own and in the processes the end-to-end tests start.
    PDF_RENDER_THREADS: '0',
    // Suites sign in many times a minute from one address; the rate-limit tests lower it again.
    OAUTH_RATE_LIMIT_PER_MINUTE: '10000',
    ...env,
  });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  const server = await startServer(config, pino({ level: config.LOG_LEVEL }, sink), hooks);
  // Tests start from a worker that takes jobs.
  await server.workerStarted;
  const cli = async (...args: string[]) => (await parseCli(args).run(config)).output as Record<string, string>;
  const api = (token?: string) => new Api(server.url, token);
  let accounts = 0;
  return {
    url: server.url,
    config,
    database,
    logs,
    cli,
    api,
    async signUp(companyName = `Account ${++accounts}`, { legalProfile = true }: { legalProfile?: boolean } = {}) {
      const created = await cli('account', 'create', '--company-name', companyName, '--email', `ops${accounts}@example.test`);
      const grant = await api().post('/v1/oauth', { grantType: 'api_token', token: created.apiToken! });
      if (grant.status !== 201) throw new Error(`sign-up failed: ${JSON.stringify(grant.body)}`);
      const body = grant.body as Record<string, string>;
      if (legalProfile) {
        const patched = await api(body.accessToken).patch(`/v1/accounts/${created.accountId}`, sellerProfile);
        if (patched.status !== 200) throw new Error(`seller profile refused: ${JSON.stringify(patched.body)}`);
      }
      return {
        accountId: created.accountId!,
        userId: created.userId!,
        apiToken: created.apiToken!,
        accessToken: body.accessToken!,
        refreshToken: body.refreshToken!,
        clientId: body.clientId!,
        api: api(body.accessToken),
      };
    },
    async close() {
      await server.close();
      await database.drop();
    },
  };
}
