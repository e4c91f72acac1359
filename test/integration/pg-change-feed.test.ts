import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, inject, it, vi, type MockInstance } from 'vitest';
import { openOrm } from '../../core/persistence/orm.js';
import { CHANGE_CHANNEL, CHANGE_FEED_APPLICATION, PgChangeFeed } from '../../core/persistence/pg-change-feed.js';
import { inRequestScope } from '../../core/persistence/request-scope.js';
import { MikroUnitOfWork } from '../../core/persistence/unit-of-work.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

describe('PgChangeFeed on PostgreSQL', () => {
  let database: TestDatabase;
  let writer: pg.Client;
  let feed: PgChangeFeed;
  const heard: Array<string | null> = [];

  beforeAll(async () => {
    database = await createTestDatabase(inject('templateDatabase'));
    writer = new pg.Client({ connectionString: database.url });
    await writer.connect();
    feed = new PgChangeFeed({ url: database.url, reconnectMs: 100, onError: () => {} });
    feed.subscribe('credentials', (accountId) => heard.push(accountId));
    await feed.start();
  });
  afterAll(async () => {
    await feed.close();
    await writer.end();
    await database.drop();
  });

  it('has announced every change committed before caughtUp() was called once it answers', async () => {
    expect(feed.live).toBe(true);
    for (let round = 0; round < 50; round++) {
      const accountId = randomUUID();
      await writer.query(`select pg_notify($1, $2)`, [CHANGE_CHANNEL, `credentials:${accountId}`]);
      expect(await feed.caughtUp()).toBe(true);
      expect(heard.at(-1), `round ${round}`).toBe(accountId);
    }
  });

  it('shares one statement among callers that arrive together, each still caught up', async () => {
    const accountId = randomUUID();
    await writer.query(`select pg_notify($1, $2)`, [CHANGE_CHANNEL, `credentials:${accountId}`]);
    expect(await Promise.all(Array.from({ length: 20 }, () => feed.caughtUp()))).toEqual(Array(20).fill(true));
    expect(heard).toContain(accountId);
  });

  it('never catches up while its connection is lost, tells its listeners to forget everything, and comes back', async () => {
    heard.length = 0;
    await writer.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()`, [CHANGE_FEED_APPLICATION]);
    const deadline = Date.now() + 5_000;
    while (feed.live && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await feed.caughtUp()).toBe(false);
    expect(heard).toContain(null);
    while (!feed.live && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await feed.caughtUp()).toBe(true);
  });
});

describe('PgChangeFeed in request scopes', () => {
  let database: TestDatabase;
  let orm: MikroORM;
  let writer: pg.Client;
  let feed: PgChangeFeed;
  const heard: Array<string | null> = [];
  let barriers: MockInstance;

  beforeAll(async () => {
    database = await createTestDatabase(inject('templateDatabase'));
    orm = await openOrm({ clientUrl: database.url, poolSize: 2 });
    writer = new pg.Client({ connectionString: database.url });
    await writer.connect();
    feed = new PgChangeFeed({ url: database.url, reconnectMs: 100, onError: () => {} });
    feed.subscribe('credentials', (accountId) => heard.push(accountId));
    await feed.start();
    // Counts the feed's round trips (its only statement after LISTEN is the barrier).
    barriers = vi.spyOn(pg.Client.prototype, 'query');
  });
  afterAll(async () => {
    barriers.mockRestore();
    await feed.close();
    await writer.end();
    await orm.close();
    await database.drop();
  });
  const barriersSent = () => barriers.mock.calls.filter(([text]) => text === 'select 1').length;
  const notify = (em: EntityManager, accountId: string) => em.execute(`select pg_notify('${CHANGE_CHANNEL}', 'credentials:${accountId}')`);

  it('asks once per scope until the scope touches the database or ends a transaction, and once per call outside scopes', async () => {
    const before = barriersSent();
    await inRequestScope(orm.em, async () => {
      for (let i = 0; i < 3; i++) expect(await feed.caughtUp()).toBe(true);
    });
    expect(barriersSent() - before).toBe(1);

    await inRequestScope(orm.em, async () => {
      await feed.caughtUp();
      await orm.em.execute('select 1 as read');
      await feed.caughtUp();
      await new MikroUnitOfWork(orm.em).transactional(async () => {
        await feed.caughtUp();
        await feed.caughtUp();
      });
      await feed.caughtUp();
    });
    expect(barriersSent() - before).toBe(5);

    await feed.caughtUp();
    await feed.caughtUp();
    expect(barriersSent() - before).toBe(7);
  });

  it("has announced what the scope's own transaction committed when asked after it, though it asked inside it", async () => {
    for (let round = 0; round < 20; round++) {
      const accountId = randomUUID();
      await inRequestScope(orm.em, async () => {
        await new MikroUnitOfWork(orm.em).transactional(async () => {
          expect(await feed.caughtUp()).toBe(true);
          await notify(orm.em, accountId);
        });
        expect(await feed.caughtUp()).toBe(true);
        expect(heard.at(-1), `round ${round}`).toBe(accountId);
      });
    }
  });
});
