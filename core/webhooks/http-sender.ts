import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { urlToHttpOptions } from 'node:url';
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
  /** The last URL as request options: a round sends all its requests to one URL, parsed once. */
  private lastTarget: { url: string; options: RequestOptions } | null = null;

  constructor(private readonly options: { allowPrivateTargets: boolean; timeoutMs: number; maxSockets: number }) {
    const agentOptions = { keepAlive: true, maxSockets: options.maxSockets, allowPrivateIPAddress: options.allowPrivateTargets };
    this.agents = { http: new RequestFilteringHttpAgent(agentOptions), https: new RequestFilteringHttpsAgent(agentOptions) };
  }

  send(webhook: WebhookRequest): Promise<WebhookResponse> {
    const started = performance.now();
    const done = (statusCode: number | null, error: string | null): WebhookResponse => ({ statusCode, error, durationMs: Math.round(performance.now() - started) });
    const target = this.optionsFor(webhook.url);
    const https = target.protocol === 'https:';
    if (!https && !(target.protocol === 'http:' && this.options.allowPrivateTargets)) return Promise.resolve(done(null, 'Only https targets are allowed.'));
    return new Promise((resolve) => {
      const settle = (response: WebhookResponse) => {
        clearTimeout(timer);
        resolve(response);
      };
      const request = (https ? httpsRequest : httpRequest)(
        {
          ...target,
          method: 'POST',
          agent: https ? this.agents.https : this.agents.http,
          headers: { ...webhook.headers, 'content-length': Buffer.byteLength(webhook.body) },
        },
        (response) => {
          let read = 0;
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_RESPONSE_BYTES) response.destroy();
          });
          const finish = () => {
            const status = response.statusCode ?? null;
            settle(done(status, status !== null && status >= 200 && status < 300 ? null : `HTTP ${status}`));
          };
          response.on('end', finish);
          response.on('close', finish);
          response.on('error', finish);
        },
      );
      // One timer for the whole exchange, the response included: an AbortSignal per request costs several times more.
      const timer = setTimeout(() => request.destroy(new Error(`No response within ${this.options.timeoutMs} ms.`)), this.options.timeoutMs).unref();
      request.on('error', (error: Error) => settle(done(null, error.message)));
      request.end(webhook.body);
    });
  }

  private optionsFor(url: string): RequestOptions {
    if (this.lastTarget?.url !== url) this.lastTarget = { url, options: urlToHttpOptions(new URL(url)) };
    return this.lastTarget.options;
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
