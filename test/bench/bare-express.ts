/**
 * The baseline of the bench's REST read: a bare Express 5 app in its own process that answers
 * GET /v1/sites/:id with the JSON in BENCH_BODY (what the service answered for the site), with no
 * authentication, database or middleware. Prints "listening on http://127.0.0.1:<port>".
 */
import express from 'express';

const body: unknown = JSON.parse(process.env.BENCH_BODY ?? '{}');
const app = express();
app.disable('x-powered-by');
app.get('/v1/sites/:id', (_request, response) => {
  response.json(body);
});
const server = app.listen(0, '127.0.0.1', (error?: Error) => {
  if (error) throw error;
  const address = server.address();
  console.log(`listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : '?'}`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
