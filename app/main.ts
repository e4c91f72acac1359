import 'reflect-metadata';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { DomainError, ValidationError } from '../core/errors.js';
import { closeInOrder } from './close-in-order.js';
import { stopSignals } from './stop-signals.js';
import { EXIT_CODES, isHelp, parseCli, UsageError, USAGE } from './cli.js';
import { ConfigError, loadConfig } from './config.js';

const SCHEMA_FILE = fileURLToPath(new URL('../graphql/schema.graphql', import.meta.url));

// Each command loads what it needs when it runs: a process that prints the usage, or runs one
// operator command, does not load the HTTP server, GraphQL or the worker (about 2 s per process).

async function serve(): Promise<void> {
  const signals = stopSignals();
  const { startServer } = await import('./server.js');
  const server = await startServer(loadConfig());
  const stopping = signals.started((signal) => {
    server.logger.info({ signal }, 'shutting down');
    server.close().then(
      () => {
        server.logger.info('shutdown complete');
        process.exit(0);
      },
      (error: unknown) => {
        server.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
  if (stopping) return;
  server.logger.info(`ebbs listening on ${server.url}`);
  const firstSteps = server.fresh
    ? `Create the first account:  npm run cli -- account create --company-name "Acme Energy" --email ops@acme.test\n` +
      `Then get an access token:  curl -s -X POST ${server.url}/v1/oauth -H 'Content-Type: application/json' -d '{"grantType":"api_token","token":"<apiToken>"}'\n`
    : `Get an access token:  curl -s -X POST ${server.url}/v1/oauth -H 'Content-Type: application/json' -d '{"grantType":"api_token","token":"<apiToken>"}'\n`;
  console.error(`\nebbs is listening on ${server.url}\n${firstSteps}`);
  // Said once the API answers; the worker's render threads may still be warming up. A worker that
  // cannot start stops the process, as a server that cannot start does.
  await server.workerStarted;
}

/** `npm run worker`: balancing and webhook deliveries without the HTTP server. */
async function workOnly(): Promise<void> {
  const [{ pino }, { openRuntime }, { buildContainer, resolveServices }, { QUEUES, startWorker }, { WebhookDispatcher }] = await Promise.all([
    import('pino'),
    import('./runtime.js'),
    import('./container.js'),
    import('./worker.js'),
    import('../core/webhooks/webhook-dispatcher.js'),
  ]);
  const signals = stopSignals();
  const config = loadConfig();
  const logger = pino({ level: config.LOG_LEVEL });
  const runtime = await openRuntime(config);
  await runtime.queue.start(QUEUES);
  const container = buildContainer({ ...runtime, logger, refreshTokenTtlSeconds: config.REFRESH_TOKEN_TTL });
  const services = resolveServices(container);
  const worker = await startWorker({ ...runtime, balancing: services.balancing, webhooks: container.resolve(WebhookDispatcher), billRuns: services.billRuns, config, logger }, signals.received);
  signals.started(() => {
    closeInOrder([() => worker.stop(), () => runtime.close()]).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

async function migrateOnly(flags: string[]): Promise<void> {
  const unknown = flags.filter((flag) => flag !== '--create-database');
  if (unknown.length > 0) throw new UsageError(`Unknown flag ${unknown.join(', ')}; migrate takes only --create-database.`);
  const { openRuntime } = await import('./runtime.js');
  const runtime = await openRuntime(loadConfig(), { createDatabase: flags.includes('--create-database') });
  await runtime.close();
  console.log('migrations applied');
}

async function createMigration(): Promise<void> {
  const { openRuntime } = await import('./runtime.js');
  const runtime = await openRuntime(loadConfig(), { schemaMode: true });
  try {
    const result = await runtime.orm.migrator.create();
    console.log(result.fileName ? `created migrations/${result.fileName}` : 'the schema is up to date; no migration created');
  } finally {
    await runtime.close();
  }
}

/** An operator command: its one JSON document on stdout, its exit code from its result. */
async function operate(args: string[]): Promise<void> {
  const command = parseCli(args);
  const { output, exitCode } = await command.run(loadConfig());
  console.log(JSON.stringify(output, null, 2));
  process.exitCode = exitCode;
}

async function main(args: string[]): Promise<void> {
  // `npm run cli` runs `main.ts cli …`: operator commands only, so that no command prints the usage instead of serving.
  const cli = args[0] === 'cli';
  if (isHelp(cli ? args.slice(1) : args)) return console.log(USAGE);
  if (cli) return operate(args.slice(1));
  const [command = 'serve'] = args;
  if (command === 'serve') return serve();
  if (command === 'worker') return workOnly();
  if (command === 'migrate') return migrateOnly(args.slice(1));
  if (command === 'migration:create') return createMigration();
  if (command === 'graphql:schema') {
    const { printGraphQLSchema } = await import('../graphql/schema.js');
    await writeFile(SCHEMA_FILE, await printGraphQLSchema());
    return console.log('wrote graphql/schema.graphql');
  }
  return operate(args);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) console.error(`${error.message}\n\n${USAGE}`);
  else if (error instanceof ConfigError) console.error(error.message);
  else if (error instanceof ValidationError) console.error(error.errors.map(({ path, message }) => (path ? `${path}: ${message}` : message)).join('\n'));
  else if (error instanceof DomainError) console.error(`${error.code}: ${error.message}`);
  else console.error(error);
  process.exit(error instanceof UsageError ? EXIT_CODES.usage : EXIT_CODES.refused);
});
