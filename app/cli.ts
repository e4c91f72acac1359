import { parseArgs } from 'node:util';
import type { AccountsService } from '../core/accounts/accounts.service.js';
import type { Actor } from '../core/auth/actor.js';
import type { BillRunView } from '../core/billing/bill-runs/bill-runs.commands.js';
import { ROLES, type Role } from '../core/domain/accounts/account.js';
import { ValidationError } from '../core/errors.js';
import type { Services } from '../core/services.js';
import { addMonths } from '../core/domain/time/calendar-date.js';
import type { Config } from './config.js';

/** An unknown command or flag, or none at all: answered with the usage on stderr. */
export class UsageError extends Error {}

export const EXIT_CODES = {
  /** The command was refused (the message names the flag) or failed; nothing was printed on stdout. */
  refused: 1,
  usage: 2,
  /** A bill run ended failed, with contract errors or without any invoice; its JSON is printed. */
  billRunIncomplete: 3,
} as const;

export interface CliResult {
  /** Printed as the one JSON document on stdout. */
  output: unknown;
  exitCode: number;
}

interface Context {
  accounts: AccountsService;
  services: Services;
  /** Runs a step in its own unit of work (MikroORM's request context). */
  inContext<T>(work: () => Promise<T>): Promise<T>;
}

interface Flag {
  name: string;
  /** What the usage shows for its value. */
  value: string;
  optional?: boolean;
  /** Given once per value (`--site A --site B`). */
  repeatable?: boolean;
  /** The field of the use case's command it fills when named otherwise, so that errors name the flag. */
  field?: string;
}

interface Command {
  flags: Flag[];
  description: string;
  /** `options`: the flags given once; `sites`: the repeatable `--site`. */
  run(context: Context, options: Record<string, string | undefined>, sites: string[]): Promise<CliResult>;
}

/** `[#########-----------] 450/1000 contracts drafted` on stderr, redrawn in place on a terminal. */
function progressBar(done: number, total: number, what: string): void {
  const width = 30;
  const filled = total === 0 ? width : Math.min(width, Math.round((done / total) * width));
  const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ${what}`;
  process.stderr.write(process.stderr.isTTY ? `\r${line}` : `${line}\n`);
}

/**
 * Works a bill run's phase in this process (a worker that holds the run's lease does it instead,
 * and this follows it) with a progress bar, until the phase ends; answers the run.
 */
async function follow(context: Context, actor: Actor, run: BillRunView, until: 'created' | 'completed'): Promise<BillRunView> {
  const { services, inContext } = context;
  let working = true;
  const work = inContext(() => services.billRuns.work({ accountId: actor.accountId, billRunId: run.id })).finally(() => (working = false));
  let current = run;
  let shown = '';
  for (;;) {
    current = await inContext(() => services.billRuns.get(actor, run.id));
    const [done, total, what] = until === 'created' ? [current.counts.contracts, current.counts.total, 'contracts drafted'] : [current.counts.issued, current.counts.invoices, 'invoices issued'];
    if (`${done}/${total}` !== shown) progressBar(done, total, what);
    shown = `${done}/${total}`;
    if (current.state === until || current.state === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, working ? 200 : 500));
  }
  if (process.stderr.isTTY) process.stderr.write('\n');
  await work.catch(() => undefined);
  return current;
}

/** Why a bill run that ended needs the operator's attention, or null. */
function shortfall(run: BillRunView): string | null {
  if (run.state === 'failed') return `The bill run failed: ${run.failure}`;
  if (run.phase !== 'create') return null;
  if (run.counts.errors > 0) return `${run.counts.errors} of ${run.counts.total} contracts got no invoice; see "errors".`;
  if (run.counts.invoices === 0) return 'No contract could be billed: the run drafted no invoice.';
  return null;
}

/** The run is printed either way; a shortfall is said on stderr and in the exit code. */
function ended(run: BillRunView): CliResult {
  const problem = shortfall(run);
  if (problem) process.stderr.write(`${problem}\n`);
  return { output: run, exitCode: problem ? EXIT_CODES.billRunIncomplete : 0 };
}

/** `2026-10` as the half-open month. */
function monthOf(period: string | undefined): { periodStart: string; periodEnd: string } {
  if (!period || !/^\d{4}-(0[1-9]|1[0-2])$/.test(period)) {
    throw new ValidationError([{ path: 'period', code: 'invalid_period', message: 'Expected a month like 2026-10.' }]);
  }
  const periodStart = `${period}-01`;
  return { periodStart, periodEnd: addMonths(periodStart, 1) };
}

const ok = (output: unknown): CliResult => ({ output, exitCode: 0 });
const role: Flag = { name: 'role', value: ROLES.join('|') };
const account: Flag = { name: 'account', value: 'ACCOUNT_ID', field: 'accountId' };

const COMMANDS: Record<string, Command> = {
  'account create': {
    flags: [{ name: 'company-name', value: 'NAME' }, { name: 'email', value: 'EMAIL' }, { name: 'timezone', value: 'ZONE', optional: true }],
    description: "a new account (time zone Europe/Berlin unless named) with its first admin user and that user's API token",
    async run({ accounts }, o) {
      const created = await accounts.createAccount({ companyName: o['company-name']!, email: o.email!, timezone: o.timezone });
      return ok({ accountId: created.accountId, userId: created.userId, apiToken: created.apiToken });
    },
  },
  'user create': {
    flags: [account, { name: 'email', value: 'EMAIL' }, role],
    description: "a new user of the account with the user's API token",
    async run({ accounts }, o) {
      const created = await accounts.createUser({ accountId: o.account!, email: o.email!, role: o.role as Role });
      return ok({ userId: created.userId, apiToken: created.apiToken });
    },
  },
  'user update': {
    flags: [{ name: 'id', value: 'USER_ID' }, role],
    description: "changes the user's role; the user's open sessions must sign in again (their next request answers 401)",
    run: async ({ accounts }, o) => ok(await accounts.updateUserRole({ id: o.id!, role: o.role as Role })),
  },
  'token create': {
    flags: [{ name: 'user', value: 'USER_ID', field: 'userId' }],
    description: 'another API token of the user',
    async run({ accounts }, o) {
      const created = await accounts.createApiToken({ userId: o.user! });
      return ok({ id: created.tokenId, userId: created.userId, apiToken: created.apiToken });
    },
  },
  'token revoke': {
    flags: [{ name: 'id', value: 'TOKEN_ID' }],
    description: 'revokes the API token and every session opened with it',
    run: async ({ accounts }, o) => ok(await accounts.revokeApiToken({ id: o.id! })),
  },
  'bill-run create': {
    flags: [{ name: 'period', value: 'YYYY-MM' }, { name: 'site', value: 'SITE_ID', optional: true, repeatable: true, field: 'siteIds' }, { ...account, optional: true }],
    description: "drafts the month's invoices (of the sites named, else of every site); --account is needed when the database holds several accounts",
    async run(context, o, sites) {
      const period = monthOf(o.period);
      const actor = await context.inContext(() => context.accounts.operator(o.account));
      const run = await context.inContext(() => context.services.billRuns.create(actor, { ...period, ...(sites.length > 0 ? { siteIds: sites } : {}) }));
      return ended(await follow(context, actor, run, 'created'));
    },
  },
  'bill-run complete': {
    flags: [{ name: 'id', value: 'BILL_RUN_ID' }, { ...account, optional: true }],
    description: "issues the run's draft invoices",
    async run(context, o) {
      const actor = await context.inContext(() => context.accounts.operator(o.account));
      const run = await context.inContext(() => context.services.billRuns.complete(actor, o.id!));
      return ended(await follow(context, actor, run, 'completed'));
    },
  },
};

function usageOf(name: string, { flags }: Command): string {
  const shown = flags.map((flag) => {
    const text = `--${flag.name} ${flag.value}`;
    return flag.optional ? `[${text}]${flag.repeatable ? '...' : ''}` : text;
  });
  return [name, ...shown].join(' ');
}

export const USAGE = `Usage: npm run cli -- COMMAND [FLAGS]   (in production: node dist/app/main.js COMMAND [FLAGS])

Operator commands print one JSON document on stdout; progress bars and errors go to stderr.
API tokens are shown only in the output of the command that creates them.
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${usageOf(name, command)}\n      ${command.description}`)
  .join('\n')}

Process commands (npm start, npm run worker, npm run migrate):
  serve      migrate, then serve REST and GraphQL (and the worker unless WORKER=off)
  worker     the worker alone: balancing, webhook deliveries, bill runs
  migrate [--create-database]
      apply pending migrations and exit; --create-database first creates the database DATABASE_URL names

help, --help or -h (also after any command) prints this.
Exit codes: 0 done; ${EXIT_CODES.refused} refused or failed (the reason on stderr); ${EXIT_CODES.usage} unknown or missing command or flag;
  ${EXIT_CODES.billRunIncomplete} the bill run ended failed, with contract errors or without any invoice (its JSON is printed).`;

export function isHelp(args: string[]): boolean {
  return args[0] === 'help' || args.includes('--help') || args.includes('-h');
}

/** The flags given, each flag's values in order; refuses unknown, valueless and repeated flags. */
function parseFlags(name: string, command: Command, args: string[]): Map<Flag, string[]> {
  const { tokens } = parseArgs({
    args,
    options: Object.fromEntries(command.flags.map((flag) => [flag.name, { type: 'string' as const, multiple: true }])),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const given = new Map<Flag, string[]>();
  for (const token of tokens) {
    if (token.kind === 'positional') throw new UsageError(`Unexpected argument "${token.value}" for ${name}.`);
    if (token.kind !== 'option') continue;
    const flag = command.flags.find((f) => `--${f.name}` === token.rawName);
    if (!flag) throw new UsageError(`Unknown flag ${token.rawName} for ${name}.`);
    // `--email --role admin`: a forgotten value, not an e-mail address of "--role".
    if (token.value === undefined || (!token.inlineValue && token.value.startsWith('-'))) throw new UsageError(`${token.rawName} needs a value.`);
    const values = given.get(flag) ?? [];
    if (values.length > 0 && !flag.repeatable) throw new UsageError(`${token.rawName} is given more than once.`);
    given.set(flag, [...values, token.value]);
  }
  const missing = command.flags.filter((flag) => !flag.optional && !given.has(flag));
  if (missing.length > 0) throw new ValidationError(missing.map((flag) => ({ path: `--${flag.name}`, code: 'required', message: 'This field is required.' })));
  return given;
}

/** The use case's errors name the flags: `companyName` → `--company-name`, `siteIds[1]` → `--site`. */
function naming(command: Command, error: ValidationError): ValidationError {
  const flagOf = (path: string) => {
    const field = path.split(/[.[]/)[0];
    const flag = command.flags.find((f) => (f.field ?? f.name.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase())) === field);
    return flag ? `--${flag.name}` : path;
  };
  return new ValidationError(
    error.errors.map((e) => ({ ...e, path: flagOf(e.path) })),
    error.code,
  );
}

export interface CliInvocation {
  /**
   * Runs the command. In embedded mode it reaches a running server's database through that
   * server's socket (see app/database.ts).
   */
  run(config: Config): Promise<CliResult>;
}

/** The operator command `args` name, with its flags checked before anything opens the database. */
export function parseCli(args: string[]): CliInvocation {
  if (args.length === 0) throw new UsageError('Name a command.');
  const name = args.slice(0, 2).join(' ');
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`Unknown command "${name}".`);
  const given = parseFlags(name, command, args.slice(2));
  const options = Object.fromEntries([...given].filter(([flag]) => !flag.repeatable).map(([flag, [value]]) => [flag.name, value]));
  const sites = [...given].find(([flag]) => flag.name === 'site')?.[1] ?? [];
  return {
    async run(config) {
      // Loaded here, not at the top: help and usage errors answer without loading the service.
      const [{ inRequestScope }, { AccountsService }, { buildContainer, resolveServices }, { openRuntime }, { QUEUES }] = await Promise.all([
        import('../core/persistence/request-scope.js'),
        import('../core/accounts/accounts.service.js'),
        import('./container.js'),
        import('./runtime.js'),
        import('./worker.js'),
      ]);
      const billing = args[0] === 'bill-run';
      // Bill runs enqueue their work (a worker may take it) and draft or issue in this process too.
      const runtime = await openRuntime({ ...config, DB_POOL_SIZE: billing ? 4 : 1 });
      try {
        if (billing) await runtime.queue.start(QUEUES);
        const container = buildContainer({ ...runtime, refreshTokenTtlSeconds: config.REFRESH_TOKEN_TTL });
        const context: Context = {
          accounts: container.resolve(AccountsService),
          services: resolveServices(container),
          inContext: (work) => inRequestScope(runtime.orm.em, work),
        };
        return await command.run(context, options, sites);
      } catch (error) {
        throw error instanceof ValidationError ? naming(command, error) : error;
      } finally {
        await runtime.close();
      }
    },
  };
}
