import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RequestContext } from '@mikro-orm/postgresql';
import express from 'express';
import { pino, type Logger } from 'pino';
import { createGraphQLApi } from '../graphql/graphql-api.js';
import { accessLog, authenticate, cors, rateLimit, requestId, securityHeaders } from '../rest/http-guards.js';
import { createRestApi, errorHandler, notFound } from '../rest/rest-api.js';
import type { OrmOptions } from '../core/persistence/orm.js';
import type { Config } from './config.js';
import { buildContainer, resolveServices, type ContainerSettings } from './container.js';
import { WebhookDispatcher } from '../core/webhooks/webhook-dispatcher.js';
import { openRuntime } from './runtime.js';
import { QUEUES, startWorker } from './worker.js';

export interface RunningServer {
  url: string;
  logger: Logger;
  close(): Promise<void>;
}

/** One Express app: REST under /v1 and GraphQL at /graphql, one ORM unit of work per request. */
export async function createHttpApp(settings: ContainerSettings & { config: Config; logger: Logger }) {
  const { config, logger, orm } = settings;
  const container = buildContainer(settings);
  const services = resolveServices(container);
  const { auth } = services;
  const rest = createRestApi(services, { rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE });
  const graphql = await createGraphQLApi(services);

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(requestId, securityHeaders, cors(config.CORS_ORIGINS), accessLog(logger));
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/ready', async (_req, res) => {
    const ready = await orm.isConnected().catch(() => false);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'database unreachable' });
  });
  app.use((_req, _res, next) => RequestContext.create(orm.em, next));
  app.use('/graphql', authenticate(auth), rateLimit(config.RATE_LIMIT_PER_MINUTE), express.json({ limit: '1mb' }), graphql.middleware);
  app.use(rest.router);
  app.use(notFound);
  app.use(errorHandler(logger));
  return { app, stopGraphQL: graphql.stop, services, dispatcher: container.resolve(WebhookDispatcher) };
}

function closeHttp(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), timeoutMs);
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}

export async function startServer(
  config: Config,
  logger: Logger = pino({ level: config.LOG_LEVEL }),
  hooks: Pick<OrmOptions, 'onQuery'> = {},
): Promise<RunningServer> {
  const runtime = await openRuntime(config, hooks);
  await runtime.queue.start(QUEUES);
  const { app, stopGraphQL, services, dispatcher } = await createHttpApp({ ...runtime, logger, refreshTokenTtlSeconds: config.REFRESH_TOKEN_TTL });
  const worker = config.WORKER === 'on' ? await startWorker({ ...runtime, balancing: services.balancing, webhooks: dispatcher, billRuns: services.billRuns, config, logger }) : null;
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.PORT, config.HOST, (error?: Error) => (error ? reject(error) : resolve(s)));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    logger,
    close: async () => {
      await closeHttp(server, config.SHUTDOWN_TIMEOUT_MS);
      worker?.stop();
      await stopGraphQL();
      await runtime.close();
    },
  };
}
