import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { pino, type Logger } from 'pino';
import { createGraphQLApi } from '../graphql/graphql-api.js';
import { accessLog, cors, requestId, securityHeaders } from '../rest/http-guards.js';
import { authenticate, clientRateLimit, pointsOfCost, type RateBudgets } from '../rest/rate-limit.js';
import { createRestApi, errorHandler, notFound } from '../rest/rest-api.js';
import type { OrmOptions } from '../core/persistence/orm.js';
import { closeInOrder } from './close-in-order.js';
import { ConfigError, type Config } from './config.js';
import { buildContainer, resolveServices, type ContainerSettings } from './container.js';
import { WebhookDispatcher } from '../core/webhooks/webhook-dispatcher.js';
import { AccountsService } from '../core/accounts/accounts.service.js';
import { openRateBudgets } from './rate-budgets.js';
import { PgChangeFeed } from '../core/persistence/pg-change-feed.js';
import { inRequestScope } from '../core/persistence/request-scope.js';
import { openRuntime } from './runtime.js';
import { QUEUES, startWorker } from './worker.js';

export interface RunningServer {
  url: string;
  logger: Logger;
  /** No account exists yet. */
  fresh: boolean;
  /**
   * Resolves once the worker (WORKER=on) takes jobs, at once without one; rejects when it cannot
   * start. Its render threads warm up first (PDF_RENDER_WARMUP_DOCUMENTS) while the API answers.
   */
  workerStarted: Promise<void>;
  close(): Promise<void>;
}

/** One Express app: REST under /v1 and GraphQL at /graphql, one ORM unit of work per request. */
export async function createHttpApp(settings: ContainerSettings & { config: Config; logger: Logger; budgets: RateBudgets }) {
  const { config, logger, orm, budgets } = settings;
  const container = buildContainer(settings);
  const services = resolveServices(container);
  const { auth } = services;
  const rest = createRestApi(services, { budgets });
  const graphql = await createGraphQLApi(services, { maxCost: config.GRAPHQL_MAX_COST, maxDepth: config.GRAPHQL_MAX_DEPTH, maxAliases: config.GRAPHQL_MAX_ALIASES });

  const app = express();
  app.disable('x-powered-by');
  // X-Forwarded-For names the client only when the peer is a proxy we were told to trust.
  app.set('trust proxy', config.TRUST_PROXY.length > 0 ? config.TRUST_PROXY : false);
  app.use(requestId, securityHeaders, cors(config.CORS_ORIGINS), accessLog(logger));
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/ready', async (_req, res) => {
    const ready = await orm.isConnected().catch(() => false);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'database unreachable' });
  });
  app.use((_req, _res, next) => inRequestScope(orm.em, next));
  app.use(
    '/graphql',
    authenticate(auth, budgets),
    express.json({ limit: '1mb' }),
    graphql.limits,
    clientRateLimit(budgets, (res) => pointsOfCost(res.locals.graphqlCost as number)),
    graphql.middleware,
  );
  app.use(rest.router);
  app.use(notFound);
  app.use(errorHandler(logger));
  return { app, stopGraphQL: graphql.stop, services, dispatcher: container.resolve(WebhookDispatcher), accounts: container.resolve(AccountsService) };
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

/** Listens, or says in one line why it cannot (a port in use is an operator's everyday mistake). */
function listen(app: Express, config: Config): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    const server = app.listen(config.PORT, config.HOST, (error?: Error) => {
      if (!error) return resolve(server);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') reject(new ConfigError(`Port ${config.PORT} on ${config.HOST} is already in use by another process; stop it or set PORT to a free port.`));
      else if (code === 'EACCES') reject(new ConfigError(`Not allowed to listen on port ${config.PORT} on ${config.HOST}; choose a port above 1023 or run with the right privileges.`));
      else reject(error);
    });
  });
}

/**
 * The change feed that lets this process keep session standings and attribute names in memory: on
 * an external PostgreSQL unless CACHE_TTL_SECONDS is 0. The embedded database (PGlite behind a
 * socket) runs all connections in one backend and is not relied on to deliver notifications
 * between them, so there every read goes to it.
 */
async function openChangeFeed(config: Config, logger: Logger): Promise<PgChangeFeed | null> {
  if (!config.DATABASE_URL || config.CACHE_TTL_SECONDS === 0) return null;
  const feed = new PgChangeFeed({
    url: config.DATABASE_URL,
    reconnectMs: config.CHANGE_FEED_RECONNECT_SECONDS * 1000,
    onError: (error) => logger.warn({ err: error }, 'change feed lost; caches read the database until it is back'),
  });
  await feed.start();
  return feed;
}

export async function startServer(
  config: Config,
  logger: Logger = pino({ level: config.LOG_LEVEL }),
  hooks: Pick<OrmOptions, 'onQuery'> = {},
): Promise<RunningServer> {
  const runtime = await openRuntime(config, hooks);
  await runtime.queue.start(QUEUES);
  const rateBudgets = openRateBudgets(config, logger);
  const changes = await openChangeFeed(config, logger);
  const { app, stopGraphQL, services, dispatcher, accounts } = await createHttpApp({
    ...runtime,
    logger,
    budgets: rateBudgets.budgets,
    refreshTokenTtlSeconds: config.REFRESH_TOKEN_TTL,
    ...(changes ? { changes } : {}),
  });
  let server: Server;
  try {
    server = await listen(app, config);
  } catch (error) {
    await closeInOrder([stopGraphQL, async () => changes?.close(), () => rateBudgets.close(), () => runtime.close()]);
    throw error;
  }
  const shutdown = new AbortController();
  const worker =
    config.WORKER === 'on' ? startWorker({ ...runtime, balancing: services.balancing, webhooks: dispatcher, billRuns: services.billRuns, config, logger }, shutdown.signal) : Promise.resolve(null);
  const workerStarted = worker.then(() => undefined);
  // Awaited by whoever waits for the worker, and by close: a failed start must not be an unhandled rejection meanwhile.
  workerStarted.catch(() => undefined);
  const { port } = server.address() as AddressInfo;
  const fresh = await inRequestScope(runtime.orm.em, () => accounts.isFreshInstallation());
  return {
    url: `http://localhost:${port}`,
    logger,
    fresh,
    workerStarted,
    close: () => {
      // A worker still warming up its render threads gives up starting instead of being waited for.
      shutdown.abort();
      return closeInOrder([
        () => closeHttp(server, config.SHUTDOWN_TIMEOUT_MS),
        async () => (await worker.catch(() => null))?.stop(),
        stopGraphQL,
        async () => changes?.close(),
        () => rateBudgets.close(),
        () => runtime.close(),
      ]);
    },
  };
}
