import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { keepBatchesTogether, type QueryQueue } from './pglite-queue.js';
import pg from 'pg';
import { ConfigError, type Config } from './config.js';

export interface Database {
  url: string;
  /** True when this process owns an embedded PGlite. */
  embedded: boolean;
  close(): Promise<void>;
}

interface EmbeddedInfo {
  pid: number;
  port: number;
}

const infoFile = (dataDir: string) => path.join(dataDir, 'embedded.json');

/** Whether something accepts connections on the local port. */
export function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The embedded database another process (a running server) already serves, if any. */
async function runningEmbedded(dataDir: string): Promise<EmbeddedInfo | null> {
  if (!existsSync(infoFile(dataDir))) return null;
  const info = JSON.parse(await readFile(infoFile(dataDir), 'utf8')) as EmbeddedInfo;
  return processAlive(info.pid) && info.pid !== process.pid && (await portAnswers(info.port)) ? info : null;
}

const urlFor = (port: number) => `postgres://postgres@127.0.0.1:${port}/postgres?sslmode=disable`;

/**
 * DATABASE_URL when set; otherwise an embedded PGlite in DATA_DIR behind a local socket, so the
 * same driver and code run in both modes. A PGlite directory opens in one process only: a second
 * process (the CLI next to a running server) connects to the server's socket instead.
 */
export async function openDatabase(config: Config): Promise<Database> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, embedded: false, close: async () => {} };
  const dataDir = path.resolve(config.DATA_DIR);
  const running = await runningEmbedded(dataDir);
  if (running) return { url: urlFor(running.port), embedded: false, close: async () => {} };

  await mkdir(path.join(dataDir, 'pgdata'), { recursive: true });
  const db = await PGlite.create(path.join(dataDir, 'pgdata'), { extensions: { btree_gist } });
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 32 });
  keepBatchesTogether((server as unknown as { queryQueue: QueryQueue }).queryQueue);
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  await writeFile(infoFile(dataDir), JSON.stringify({ pid: process.pid, port } satisfies EmbeddedInfo));
  return {
    url: urlFor(port),
    embedded: true,
    close: async () => {
      // The data directory is released even when closing fails: this process no longer serves it.
      try {
        await server.stop();
        await db.close();
      } finally {
        await rm(infoFile(dataDir), { force: true });
      }
    },
  };
}

/**
 * A secret from the environment, or in embedded mode a generated one kept in DATA_DIR (mode 600),
 * so that tokens and webhook secrets survive restarts.
 */
export async function resolveSecret(config: Config, configured: string | undefined, fileName: string): Promise<string> {
  if (configured) return configured;
  const file = path.join(path.resolve(config.DATA_DIR), fileName);
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  await mkdir(path.dirname(file), { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  await writeFile(file, secret, { mode: 0o600 });
  return secret;
}

/** PostgreSQL's answer when the database named in a connection does not exist. */
const INVALID_CATALOG_NAME = '3D000';

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The database DATABASE_URL names must exist: a typo must not give an empty billing database.
 * Only `migrate --create-database` creates it (on the same server, through its `postgres` database).
 */
export async function ensureExternalDatabase(url: string, create: boolean): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1)) || 'postgres';
  try {
    await withClient(url, async () => {});
    return;
  } catch (error) {
    if ((error as { code?: string }).code !== INVALID_CATALOG_NAME) throw error;
  }
  if (!create) {
    throw new ConfigError(`The database "${name}" named in DATABASE_URL does not exist. Check the URL, or create it with: npm run migrate -- --create-database`);
  }
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  await withClient(maintenance.toString(), (client) => client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`));
}

/** Any fixed number, the same in every ebbs process: the advisory lock migrations run under. */
const MIGRATION_LOCK = 4_711_042;

/**
 * Runs `work` (the migrations) while holding a session advisory lock on its own connection, so
 * that several processes starting at once apply each migration once: the others wait, then find
 * nothing left to do.
 */
export async function underMigrationLock<T>(url: string, work: () => Promise<T>): Promise<T> {
  return withClient(url, async (client) => {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      return await work();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  });
}
