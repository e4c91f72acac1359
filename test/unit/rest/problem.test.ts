import type { AddressInfo } from 'node:net';
import express from 'express';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../core/errors.js';
import { requestId } from '../../../rest/http-guards.js';
import { errorHandler } from '../../../rest/rest-api.js';

async function serve(error: unknown) {
  const logged: string[] = [];
  const app = express();
  app.use(requestId);
  app.get('/boom', () => {
    throw error;
  });
  app.use(errorHandler(pino({}, { write: (line: string) => logged.push(line) })));
  const server = app.listen(0);
  const { port } = server.address() as AddressInfo;
  const response = await fetch(`http://127.0.0.1:${port}/boom`);
  server.close();
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, logged };
}

describe('problem responses', () => {
  it('hides unexpected errors behind a generic 500 and logs them', async () => {
    const { status, body, logged } = await serve(new Error('duplicate key in select * from secrets'));
    expect(status).toBe(500);
    expect(body).toMatchObject({ status: 500, code: 'internal_error', detail: 'An unexpected error occurred.' });
    expect(JSON.stringify(body)).not.toMatch(/secrets|stack|at /);
    expect(logged.join('')).toContain('select * from secrets');
  });

  it('maps core errors by kind', async () => {
    const { status, body } = await serve(new ConflictError('thing_taken', 'Taken.'));
    expect([status, body.code, body.detail, body.title]).toEqual([409, 'thing_taken', 'Taken.', 'Conflict']);
  });
});
