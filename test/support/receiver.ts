import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** How the receiver answers one request: a status, or `hang` (never answers). */
export type Answer = number | 'hang';

/** A real HTTP receiver on loopback that records every request and answers as told. */
export async function startReceiver(answer: (request: Received, index: number) => Answer = () => 204) {
  const received: Received[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const request = { headers: req.headers, body, at: Date.now() };
      received.push(request);
      const status = answer(request, received.length - 1);
      if (status === 'hang') hanging.push(res);
      else res.writeHead(status).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** The envelopes of the requests answered with 2xx (as far as the receiver knows). */
    events: () => received.map((r) => JSON.parse(r.body) as Record<string, any>),
    async until(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`receiver: condition not met within ${timeoutMs} ms; got ${received.length} requests`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
