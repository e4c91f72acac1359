import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { blocksAnother, waitFor } from '../support/waiting.js';

describe('graceful shutdown', () => {
  it('finishes the request in flight, then refuses new connections and closes the ORM', async () => {
    const app = await startTestApp();
    const acme = await app.signUp('Acme');
    const blocker = new pg.Client({ connectionString: app.database.url });
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('lock table sites in access exclusive mode');

    const inFlight = acme.api.get('/v1/sites');
    await waitFor('the GET waiting for the locked table', () => blocksAnother(blocker));
    let closed = false;
    const closing = app.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(closed).toBe(false);
    await expect(fetch(`${app.url}/health`)).rejects.toThrow();

    await blocker.query('commit');
    await blocker.end();
    const response = await inFlight;
    expect(response.status).toBe(200);
    await closing;
    expect(closed).toBe(true);
  });
});
