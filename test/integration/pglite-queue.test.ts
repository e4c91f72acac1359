import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { keepBatchesTogether, type QueryQueue } from '../../app/pglite-queue.js';

/** Two connections to one embedded PGlite, each running parameterised statements (Parse, Bind, Execute, Sync) outside a transaction at once. */
async function concurrentStatements(): Promise<{ failures: string[]; wrong: number }> {
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 4 });
  const queue = (server as unknown as { queryQueue: QueryQueue }).queryQueue;
  keepBatchesTogether(queue);
  await server.start();
  const url = `postgres://postgres@${server.getServerConn()}/postgres`;
  const clients = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
  const failures: string[] = [];
  let wrong = 0;
  try {
    await Promise.all(clients.map((c) => c.connect()));
    await Promise.all(
      clients.map(async (client, c) => {
        for (let i = 0; i < 150; i++) {
          try {
            // Different shapes per connection: a statement bound to the other's would answer wrongly.
            const { rows } = c === 0 ? await client.query('select $1::int + 1 as v', [i]) : await client.query("select $1::text || '!' as v, 0 as w", [String(i)]);
            if (String(rows[0].v) !== (c === 0 ? String(i + 1) : `${i}!`)) wrong++;
          } catch (error) {
            failures.push((error as Error).message);
          }
        }
      }),
    );
  } finally {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    await server.stop();
    await db.close();
  }
  return { failures, wrong };
}

describe('the embedded database socket', () => {
  it('keeps each connection’s statements together, so concurrent parameterised statements all answer right', async () => {
    expect(await concurrentStatements()).toEqual({ failures: [], wrong: 0 });
  }, 60_000);
});
