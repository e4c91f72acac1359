import { parseArgs } from 'node:util';
import { RequestContext } from '@mikro-orm/postgresql';
import { AccountsService } from '../core/accounts/accounts.service.js';
import type { Actor } from '../core/auth/actor.js';
import type { BillRunView } from '../core/billing/bill-runs.commands.js';
import type { Services } from '../core/services.js';
import { addMonths } from '../core/domain/time/calendar-date.js';
import type { Config } from './config.js';
import { buildContainer, resolveServices } from './container.js';
import { openRuntime } from './runtime.js';
import { QUEUES } from './worker.js';

export class UsageError extends Error {}

const USAGE = `Usage:
  npm run cli -- account create --company-name NAME --email EMAIL [--timezone Europe/Berlin]
  npm run cli -- user create --account ACCOUNT_ID --email EMAIL --role admin|viewer
  npm run cli -- token create --user USER_ID
  npm run cli -- token revoke --id TOKEN_ID
  npm run cli -- bill-run create --period YYYY-MM [--site SITE_ID]... [--account ACCOUNT_ID]
  npm run cli -- bill-run complete --id BILL_RUN_ID [--account ACCOUNT_ID]`;

interface Context {
  accounts: AccountsService;
  services: Services;
  /** Runs a step in its own unit of work (MikroORM's request context). */
  inContext<T>(work: () => Promise<T>): Promise<T>;
}

/** `sites`: the repeatable `--site`. */
type Command = (context: Context, options: Record<string, string | undefined>, sites: string[]) => Promise<unknown>;

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

/** `2026-10` as the half-open month. */
function monthOf(period: string | undefined): { periodStart: string; periodEnd: string } {
  if (!period || !/^\d{4}-(0[1-9]|1[0-2])$/.test(period)) throw new UsageError(`--period must be a month like 2026-10.\n${USAGE}`);
  const periodStart = `${period}-01`;
  return { periodStart, periodEnd: addMonths(periodStart, 1) };
}

const COMMANDS: Record<string, Command> = {
  'account create': async ({ accounts }, o) => {
    const created = await accounts.createAccount({ companyName: o['company-name']!, email: o.email!, timezone: o.timezone });
    return { accountId: created.accountId, userId: created.userId, apiToken: created.apiToken };
  },
  'user create': async ({ accounts }, o) => {
    const created = await accounts.createUser({ accountId: o.account!, email: o.email!, role: o.role as 'admin' });
    return { userId: created.userId, apiToken: created.apiToken };
  },
  'token create': async ({ accounts }, o) => {
    const created = await accounts.createApiToken({ userId: o.user! });
    return { id: created.tokenId, userId: created.userId, apiToken: created.apiToken };
  },
  'token revoke': ({ accounts }, o) => accounts.revokeApiToken({ id: o.id! }),
  'bill-run create': async (context, o, sites) => {
    const actor = await context.inContext(() => context.accounts.operator(o.account));
    const run = await context.inContext(() => context.services.billRuns.create(actor, { ...monthOf(o.period), ...(sites.length > 0 ? { siteIds: sites } : {}) }));
    return follow(context, actor, run, 'created');
  },
  'bill-run complete': async (context, o) => {
    const actor = await context.inContext(() => context.accounts.operator(o.account));
    const run = await context.inContext(() => context.services.billRuns.complete(actor, o.id ?? ''));
    return follow(context, actor, run, 'completed');
  },
};

export function isCliCommand(args: string[]): boolean {
  return `${args[0]} ${args[1]}` in COMMANDS;
}

/**
 * Runs one operator command and returns its JSON result. In embedded mode it reaches a running
 * server's database through that server's socket (see app/database.ts).
 */
export async function runCli(config: Config, args: string[]): Promise<unknown> {
  const command = COMMANDS[`${args[0]} ${args[1]}`];
  if (!command) throw new UsageError(USAGE);
  const { values } = parseArgs({
    args: args.slice(2),
    options: {
      ...Object.fromEntries(['company-name', 'email', 'timezone', 'account', 'role', 'user', 'id', 'period'].map((name) => [name, { type: 'string' as const }])),
      site: { type: 'string', multiple: true },
    },
    strict: true,
  });
  const billing = args[0] === 'bill-run';
  // Bill runs enqueue their work (a worker may take it) and draft or issue in this process too.
  const runtime = await openRuntime({ ...config, DB_POOL_SIZE: billing ? 4 : 1 });
  try {
    if (billing) await runtime.queue.start(QUEUES);
    const container = buildContainer({ ...runtime, refreshTokenTtlSeconds: config.REFRESH_TOKEN_TTL });
    const context: Context = {
      accounts: container.resolve(AccountsService),
      services: resolveServices(container),
      inContext: (work) => RequestContext.create(runtime.orm.em, work),
    };
    const { site, ...options } = values;
    return await command(context, options, site ?? []);
  } finally {
    await runtime.close();
  }
}
