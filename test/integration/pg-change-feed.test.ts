import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CHANGE_CHANNEL, CHANGE_FEED_APPLICATION, PgChangeFeed } from '../../core/persistence/pg-change-feed.js';
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
