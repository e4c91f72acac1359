import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_JWT_SECRET, TEST_WEBHOOK_KEY, type SignedUp, type TestApp } from '../support/app.js';
import { queryRows } from '../support/database.js';
import { address, create, fixtures } from '../support/fixtures.js';
import { runEbbs } from '../support/process.js';

/** Every command's line in the usage, with its flags. */
const COMMAND_LINES = [
  'account create --company-name NAME --email EMAIL [--timezone ZONE]',
  'user create --account ACCOUNT_ID --email EMAIL --role admin|viewer',
  'user update --id USER_ID --role admin|viewer',
  'token create --user USER_ID',
  'token revoke --id TOKEN_ID',
  'bill-run create --period YYYY-MM [--site SITE_ID]... [--account ACCOUNT_ID]',
  'bill-run complete --id BILL_RUN_ID [--account ACCOUNT_ID]',
  'serve ',
  'worker ',
  'migrate [--create-database]',
];

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const QH = 15 * 60 * 1000;
/** October 2026 in Berlin, as UTC instants. */
const OCTOBER = { from: new Date('2026-09-30T22:00:00.000Z'), to: new Date('2026-10-31T23:00:00.000Z') };

describe('the operator CLI', () => {
  let app: TestApp;
  let env: Record<string, string>;
  /** As `npm run cli -- …` runs it. */
  const cli = (...args: string[]) => runEbbs(['cli', ...args], env);
  /** The npm script itself: without arguments it must not fall through to `serve`. */
  const npmRunCli = () =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('npm', ['run', '--silent', 'cli'], { cwd: ROOT, env: { ...process.env, ...env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let [stdout, stderr] = ['', ''];
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      // A server would run until stopped: end it, so that the failure shows instead of a timeout
      // (generous: six processes start at once, on two cores shared with another test file).
      const timer = setTimeout(() => child.kill('SIGTERM'), 60_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  const count = async (table: string) => Number((await queryRows(app.database.url, `select count(*) from ${table}`))[0]!.count);

  beforeAll(async () => {
    app = await startTestApp();
    env = { DATABASE_URL: app.database.url, JWT_SECRET: TEST_JWT_SECRET, WEBHOOK_SECRET_KEY: TEST_WEBHOOK_KEY };
  });
  afterAll(() => app.close());

  it('prints the usage with every command and its flags on stdout for help, --help and --help after a command', async () => {
    const forms = [['help'], ['--help'], ['bill-run', 'create', '--help']];
    const runs = await Promise.all(forms.map((args) => cli(...args)));
    for (const [i, { code, stdout, stderr }] of runs.entries()) {
      expect(code, forms[i]!.join(' ')).toBe(0);
      for (const line of COMMAND_LINES) expect(stdout, forms[i]!.join(' ')).toContain(line);
      expect(stderr).not.toContain('Usage');
    }
  }, 120_000);

  it('answers a missing or unknown command with the usage on stderr and exit code 2, and never serves', async () => {
    // Awaiting the exit is the proof: a server would run until stopped.
    const runs = await Promise.all([npmRunCli(), cli(), cli('serve'), cli('account'), cli('frobnicate'), runEbbs(['frobnicate'], env)]);
    for (const { code, stdout, stderr } of runs) {
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain('Usage: npm run cli -- COMMAND [FLAGS]');
      expect(stderr).toContain(COMMAND_LINES[0]);
      expect(`${stdout}${stderr}`).not.toContain('listening on');
    }
    expect((await cli('frobnicate', 'now')).stderr).toMatch(/^Unknown command "frobnicate now"\./);
  }, 120_000);

  it('names the flag of a missing or bad value and of an unknown flag, and changes nothing', async () => {
    const accounts = await count('accounts');
    const [missing, bad, unknown, valueless, period, token] = await Promise.all([
      cli('account', 'create', '--email', 'ops@example.test'),
      cli('account', 'create', '--company-name', 'Acme', '--email', 'not-an-address', '--timezone', 'Mars/Olympus'),
      cli('account', 'create', '--company-name', 'Acme', '--email', 'ops@example.test', '--emial', 'x'),
      cli('account', 'create', '--company-name', '--email', 'ops@example.test'),
      cli('bill-run', 'create', '--period', '2026-13'),
      cli('token', 'create', '--user', 'nobody'),
    ]);
    expect([missing.code, missing.stdout, missing.stderr.trim()]).toEqual([1, '', '--company-name: This field is required.']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^--email: /m);
    expect(bad.stderr).toMatch(/^--timezone: Expected an IANA time zone/m);
    expect(bad.stderr).not.toMatch(/companyName|"path"/);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^Unknown flag --emial for account create\./);
    expect([valueless.code, valueless.stderr]).toEqual([2, expect.stringMatching(/^--company-name needs a value\./)]);
    expect([period.code, period.stderr.trim()]).toEqual([1, '--period: Expected a month like 2026-10.']);
    expect([token.code, token.stderr.trim()]).toEqual([1, '--user: Invalid UUID']);
    expect(await count('accounts')).toBe(accounts);
  }, 120_000);

  describe('user update', () => {
    let acme: SignedUp;
    let second: { userId: string; apiToken: string };

    beforeAll(async () => {
      acme = await app.signUp('Acme');
      const created = await cli('user', 'create', '--account', acme.accountId, '--email', 'second@acme.test', '--role', 'admin');
      expect(created.code, created.stderr).toBe(0);
      second = JSON.parse(created.stdout);
    });

    it("changes a user's role: the open session is refused with its next request, a new one reads but may not write", async () => {
      const signIn = async () => app.api((await app.api().post('/v1/oauth', { grantType: 'api_token', token: second.apiToken })).body.accessToken);
      const session = await signIn();
      await fixtures.site(session);

      const updated = await cli('user', 'update', '--id', second.userId, '--role', 'viewer');
      expect(updated.code, updated.stderr).toBe(0);
      expect(JSON.parse(updated.stdout)).toMatchObject({ id: second.userId, email: 'second@acme.test', role: 'viewer' });
      expect(await queryRows(app.database.url, 'select role from users where id = $1', [second.userId])).toEqual([{ role: 'viewer' }]);

      const refused = await session.post('/v1/sites', { name: 'Later', type: 'balanced_accurate', address });
      expect([refused.status, refused.body.code]).toEqual([401, 'invalid_token']);
      const fresh = await signIn();
      expect((await fresh.get('/v1/sites')).status).toBe(200);
      expect((await fresh.post('/v1/sites', { name: 'Later', type: 'balanced_accurate', address })).status).toBe(403);
      // The first admin kept the account's writes.
      expect((await acme.api.post('/v1/sites', { name: 'Later', type: 'balanced_accurate', address })).status).toBe(201);
    });

    it('refuses an unknown user and an unknown role, and leaves the role as it was', async () => {
      const nobody = randomUUID();
      const unknown = await cli('user', 'update', '--id', nobody, '--role', 'admin');
      expect([unknown.code, unknown.stdout, unknown.stderr.trim()]).toEqual([1, '', `user_not_found: No user with id ${nobody}.`]);
      const role = await cli('user', 'update', '--id', second.userId, '--role', 'owner');
      expect([role.code, role.stdout]).toEqual([1, '']);
      expect(role.stderr).toMatch(/^--role: /);
      const missing = await cli('user', 'update', '--id', second.userId);
      expect([missing.code, missing.stderr.trim()]).toEqual([1, '--role: This field is required.']);
      expect(await queryRows(app.database.url, 'select role from users where id = $1', [second.userId])).toEqual([{ role: 'viewer' }]);
    }, 120_000);
  });

  describe('bill-run create', () => {
    /**
     * A site with one contract billed a monthly base fee and a meter of its own; without
     * `measured`, the meter has no October data and the contract gets no invoice.
     */
    async function billableSite(account: SignedUp, product: string, measured: boolean): Promise<string> {
      const site = await fixtures.site(account.api, { type: 'unbalanced_accurate' });
      const meter = await fixtures.meter(account.api, site.id, { measuring: 'load_profile_accurate', startDate: OCTOBER.from.toISOString() });
      if (measured) {
        const quarterHours = (OCTOBER.to.getTime() - OCTOBER.from.getTime()) / QH;
        const measurements = Array.from({ length: quarterHours }, (_, i) => ({ meterId: meter.id, timestamp: new Date(OCTOBER.from.getTime() + i * QH).toISOString(), value: 0 }));
        expect((await account.api.post('/v1/measurements', { measurements })).status).toBe(201);
      }
      const customer = await fixtures.customer(account.api);
      const contract = await fixtures.contract(account.api, { customerId: customer.id, electricityProductId: product, siteId: site.id });
      await create(account.api, '/v1/contract-meters', { contractId: contract.id, siteId: site.id, meterId: meter.id, startDate: '2026-01-01' });
      return site.id;
    }

    async function baseFeeProduct(account: SignedUp): Promise<string> {
      const vat = await create(account.api, '/v1/tax-rates', { name: 'VAT', percentage: '19.00', validFrom: '2020-01-01' });
      const product = await fixtures.product(account.api);
      const group = await create(account.api, '/v1/price-component-groups', { electricityProductId: product.id, name: 'Strom' });
      const fee = await create(account.api, '/v1/price-components', { priceComponentGroupId: group.id, name: 'Grundpreis', kind: 'base_fee', taxRateId: vat.id });
      await create(account.api, '/v1/prices', { priceComponentId: fee.id, validFrom: '2026-01-01', amount: '12.000000' });
      return product.id;
    }

    it('exits 3 with the run on stdout when no contract could be billed', async () => {
      const empty = await app.signUp('Nothing to bill');
      const { code, stdout, stderr } = await cli('bill-run', 'create', '--period', '2026-10', '--account', empty.accountId);
      expect(code, stderr).toBe(3);
      const run = JSON.parse(stdout);
      expect(run).toMatchObject({ state: 'created', counts: { total: 0, invoices: 0, errors: 0 } });
      expect(stderr).toContain('No contract could be billed');
      expect(await queryRows(app.database.url, 'select state from bill_runs where id = $1', [run.id])).toEqual([{ state: 'created' }]);
    }, 60_000);

    it('exits 3 when a contract got no invoice and 0 when every contract got one', async () => {
      const account = await app.signUp('Billing');
      const product = await baseFeeProduct(account);
      const unmeasured = await billableSite(account, product, false);
      const measured = await billableSite(account, product, true);

      const failing = await cli('bill-run', 'create', '--period', '2026-10', '--account', account.accountId, '--site', unmeasured);
      expect(failing.code, failing.stderr).toBe(3);
      expect(JSON.parse(failing.stdout)).toMatchObject({ state: 'created', counts: { total: 1, invoices: 0, errors: 1 }, errors: [{ code: 'incomplete_measurements' }] });
      expect(failing.stderr).toContain('1 of 1 contracts got no invoice');

      const clean = await cli('bill-run', 'create', '--period', '2026-10', '--account', account.accountId, '--site', measured);
      expect(clean.code, clean.stderr).toBe(0);
      const run = JSON.parse(clean.stdout);
      expect(run).toMatchObject({ state: 'created', counts: { total: 1, invoices: 1, errors: 0 } });
      expect(await queryRows(app.database.url, `select state from invoices where bill_run_id = $1`, [run.id])).toEqual([{ state: 'draft' }]);

      const completed = await cli('bill-run', 'complete', '--id', run.id, '--account', account.accountId);
      expect(completed.code, completed.stderr).toBe(0);
      expect(JSON.parse(completed.stdout)).toMatchObject({ id: run.id, state: 'completed', counts: { issued: 1 } });
    }, 120_000);
  });
});
