import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { startTestApp, TEST_JWT_SECRET, TEST_WEBHOOK_KEY } from '../support/app.js';
import { createTestDatabase, databaseUrl, withAdmin } from '../support/database.js';
import { listening, runEbbs, spawnEbbs, watch } from '../support/process.js';
import { portAnswers, processAlive } from '../../app/database.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MIGRATIONS = (await readdir(path.join(ROOT, 'migrations'))).filter((file) => file.endsWith('.ts')).length;

const secrets = { JWT_SECRET: TEST_JWT_SECRET, WEBHOOK_SECRET_KEY: TEST_WEBHOOK_KEY };
const databaseExists = (name: string) => withAdmin(async (c) => (await c.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1);
async function appliedMigrations(name: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl(name) });
  await client.connect();
  try {
    return (await client.query<{ name: string }>('select name from mikro_orm_migrations order by name')).rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

describe('the process model an operator deploys', () => {
  /**
   * `npm start` on an embedded database in a new data directory, as the README's quick start runs
   * it. The server shares npm's output pipes: they close once npm and the server have both exited
   * and everything they wrote has been read, so that a failed expectation shows all of it.
   */
  async function npmStart(logLevel: string, settings: Record<string, string> = {}) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'ebbs-start-'));
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !['DATABASE_URL', 'JWT_SECRET', 'WEBHOOK_SECRET_KEY', 'NODE_ENV'].includes(key)));
    const npm = spawn('npm', ['start'], { cwd: ROOT, env: { ...env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: logLevel, ...settings }, stdio: ['ignore', 'pipe', 'pipe'] });
    /** What npm and the server wrote, and how npm exited. */
    const output = { log: '', ended: '' };
    for (const stream of [npm.stdout, npm.stderr]) stream.on('data', (chunk: Buffer) => void (output.log += chunk.toString()));
    const exited = new Promise<number | null>((resolve) =>
      npm.on('close', (code, signal) => {
        output.ended = `npm exited with ${signal ?? code}`;
        resolve(code);
      }),
    );
    const stop = async () => {
      npm.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    };
    return { npm, infoFile: path.join(dataDir, 'embedded.json'), output, exited, stop };
  }

  it('stops `npm start` on SIGTERM: the port is free and the embedded database released within 10 s, the render threads still warming up', async () => {
    // The longest warm-up (a minute or more): the signal comes while the threads warm up, and the
    // shutdown must not wait for them.
    const { npm, infoFile, output, exited, stop } = await npmStart('warn', { PDF_RENDER_WARMUP_DOCUMENTS: '10000' });
    try {
      const { url, output: banner } = await listening(npm, exited);
      expect(banner).toContain('Create the first account:  npm run cli -- account create');
      const port = Number(new URL(url).port);
      const server = JSON.parse(await readFile(infoFile, 'utf8')) as { pid: number };
      expect(server.pid).not.toBe(npm.pid);
      expect(await portAnswers(port)).toBe(true);

      const signalled = Date.now();
      npm.kill('SIGTERM');
      await exited;
      while ((processAlive(server.pid) || (await portAnswers(port))) && Date.now() - signalled < 10_000) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(processAlive(server.pid), output.log).toBe(false);
      expect(await portAnswers(port), output.log).toBe(false);
      expect(existsSync(infoFile), `${output.log}\n${output.ended}`).toBe(false);
      expect(Date.now() - signalled).toBeLessThan(10_000);
    } finally {
      await stop();
    }
  }, 60_000);

  it('finishes starting `npm start` on a SIGTERM that comes while it starts, then stops cleanly', async () => {
    const { npm, infoFile, output, exited, stop } = await npmStart('info');
    try {
      // The embedded database is open (its file is written) before the migrations and the worker start.
      const since = Date.now();
      while (!existsSync(infoFile) && Date.now() - since < 30_000) await new Promise((resolve) => setTimeout(resolve, 10));
      npm.kill('SIGTERM');
      await exited;
      // npm exits as the server does: 0 after its shutdown, or by the signal had it ended the server at once.
      expect(output.ended, output.log).toBe('npm exited with 0');
      expect(output.log).toContain('"msg":"shutting down"');
      expect(output.log).toContain('"msg":"shutdown complete"');
      expect(existsSync(infoFile), output.log).toBe(false);
    } finally {
      await stop();
    }
  }, 60_000);

  it('stops `npm run worker` on SIGTERM while its render threads warm up, without waiting for them', async () => {
    const database = await createTestDatabase(inject('templateDatabase'));
    // The longest warm-up (a minute or more): the signal comes while the threads warm up.
    const worker = spawnEbbs(['worker'], { ...secrets, DATABASE_URL: database.url, LOG_LEVEL: 'info', PDF_RENDER_WARMUP_DOCUMENTS: '10000' });
    const { output, exited, printed } = watch(worker);
    try {
      await printed('"msg":"worker starting: render threads warming up"');
      expect(output()).toContain('"warmUpDocuments":10000');
      const signalled = Date.now();
      worker.kill('SIGTERM');
      expect(await exited, output()).toBe(0);
      expect(Date.now() - signalled, output()).toBeLessThan(10_000);
      expect(output()).toContain('"msg":"worker not started: shutting down"');
      expect(output()).not.toContain('"msg":"worker started"');
      // It let go of the database: nothing of it is still connected.
      const connected = await withAdmin(async (c) => (await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [database.name])).rows[0].n as number);
      expect(connected, output()).toBe(0);
    } finally {
      worker.kill('SIGKILL');
      await database.drop();
    }
  }, 60_000);

  it('refuses to serve or work on a database that does not exist, and creates one only when told to', async () => {
    const name = `ebbs_missing_${randomUUID().replaceAll('-', '')}`;
    const env = { ...secrets, DATABASE_URL: databaseUrl(name), PORT: '0', HOST: '127.0.0.1' };
    try {
      for (const command of ['serve', 'worker', 'migrate']) {
        const run = await runEbbs([command], env);
        expect(run.code, command).not.toBe(0);
        expect(run.stderr, command).toContain(`The database "${name}" named in DATABASE_URL does not exist`);
        expect(run.stdout, command).not.toContain('listening on');
      }
      expect(await databaseExists(name)).toBe(false);

      const created = await runEbbs(['migrate', '--create-database'], env);
      expect(created.code, created.stderr).toBe(0);
      expect(await databaseExists(name)).toBe(true);
      expect(await appliedMigrations(name)).toHaveLength(MIGRATIONS);
      expect((await runEbbs(['migrate', '--create-databases'], env)).code).not.toBe(0);
    } finally {
      await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    }
  }, 60_000);

  it('stops telling how to create the first account once one exists', async () => {
    const database = await createTestDatabase(inject('templateDatabase'));
    const env = { ...secrets, DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', WORKER: 'off', LOG_LEVEL: 'warn' };
    try {
      expect((await runEbbs(['account', 'create', '--company-name', 'Acme', '--email', 'ops@acme.test'], env)).code).toBe(0);
      const server = spawnEbbs(['serve'], env);
      const { output, exited, printed } = watch(server);
      await printed('Get an access token');
      server.kill('SIGTERM');
      await exited;
      expect(output()).toContain('listening on');
      expect(output()).not.toContain('Create the first account');
    } finally {
      await database.drop();
    }
  }, 120_000);

  it('says where it listens once the API answers, while the worker still warms up its render threads', async () => {
    const database = await createTestDatabase(inject('templateDatabase'));
    // One render thread warming up on 400 specimen invoices: seconds of CPU before the worker takes jobs.
    const env = { ...secrets, DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', PDF_RENDER_THREADS: '1', PDF_RENDER_WARMUP_DOCUMENTS: '400' };
    const server = spawnEbbs(['serve'], env);
    const { output, exited, printed } = watch(server);
    try {
      const { url } = await listening(server, exited);
      expect(output()).not.toContain('"msg":"worker started"');
      expect((await fetch(`${url}/v1/sites`)).status).toBe(401);
      await printed('"msg":"worker started"', 60_000);
      expect(output().indexOf('"msg":"worker started"'), output()).toBeGreaterThan(output().indexOf('ebbs is listening on'));
      server.kill('SIGTERM');
      expect(await exited, output()).toBe(0);
    } finally {
      server.kill('SIGKILL');
      await database.drop();
    }
  }, 120_000);

  it('says in one line that the port is taken, and lets go of everything it opened', async () => {
    const first = await startTestApp({ WORKER: 'off' });
    try {
      const second = await runEbbs(['serve'], { ...secrets, DATABASE_URL: first.database.url, PORT: new URL(first.url).port, HOST: '127.0.0.1' });
      expect(second.code).toBe(1);
      expect(second.stderr.trim()).toBe(`Port ${new URL(first.url).port} on 127.0.0.1 is already in use by another process; stop it or set PORT to a free port.`);
    } finally {
      await first.close();
    }
  }, 120_000);

  it('applies migrations once when several processes start together', async () => {
    const name = `ebbs_race_${randomUUID().replaceAll('-', '')}`;
    await withAdmin((c) => c.query(`CREATE DATABASE "${name}"`));
    try {
      const env = { ...secrets, DATABASE_URL: databaseUrl(name) };
      const runs = await Promise.all([1, 2, 3].map(() => runEbbs(['migrate'], env)));
      expect(runs.map((run) => run.code), runs.map((run) => run.stderr).join('\n')).toEqual([0, 0, 0]);
      const applied = await appliedMigrations(name);
      expect(applied).toHaveLength(MIGRATIONS);
      expect(new Set(applied).size).toBe(MIGRATIONS);
    } finally {
      await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    }
  }, 60_000);
});
