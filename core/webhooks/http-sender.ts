import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface WebhookResponse {
  /** Null when no response came. */
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookResponse>;
}

/** Response bodies are read up to this many bytes, then the connection is dropped. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs deliveries with Node's http(s) and agents that refuse private, loopback and link-local
 * addresses after DNS resolution, on every connection. Redirects are not followed (a 3xx is a
 * failed attempt); a receiver that never answers costs one timeout.
 */
export class HttpWebhookSender implements WebhookSender {
  private readonly agents: { http: RequestFilteringHttpAgent; https: RequestFilteringHttpsAgent };

  constructor(private readonly options: { allowPrivateTargets: boolean; timeoutMs: number; maxSockets: number }) {
    const agentOptions = { keepAlive: true, maxSockets: options.maxSockets, allowPrivateIPAddress: options.allowPrivateTargets };
    this.agents = { http: new RequestFilteringHttpAgent(agentOptions), https: new RequestFilteringHttpsAgent(agentOptions) };
  }

  send(webhook: WebhookRequest): Promise<WebhookResponse> {
    const started = performance.now();
    const done = (statusCode: number | null, error: string | null): WebhookResponse => ({ statusCode, error, durationMs: Math.round(performance.now() - started) });
    const url = new URL(webhook.url);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && this.options.allowPrivateTargets)) return Promise.resolve(done(null, 'Only https targets are allowed.'));
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve) => {
      const request = send(
        url,
        {
          method: 'POST',
          agent: url.protocol === 'https:' ? this.agents.https : this.agents.http,
          headers: { ...webhook.headers, 'content-length': Buffer.byteLength(webhook.body) },
          signal: AbortSignal.timeout(this.options.timeoutMs),
        },
        (response) => {
          let read = 0;
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_RESPONSE_BYTES) response.destroy();
          });
          const finish = () => {
            const status = response.statusCode ?? null;
            resolve(done(status, status !== null && status >= 200 && status < 300 ? null : `HTTP ${status}`));
          };
          response.on('end', finish);
          response.on('close', finish);
          response.on('error', finish);
        },
      );
      request.on('error', (error: Error) => {
        const timedOut = error.name === 'AbortError' || error.name === 'TimeoutError';
        resolve(done(null, timedOut ? `No response within ${this.options.timeoutMs} ms.` : error.message));
      });
      request.end(webhook.body);
    });
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
