import { parseArgs } from 'node:util';
import { RequestContext } from '@mikro-orm/postgresql';
import { AccountsService } from '../core/accounts/accounts.service.js';
import type { Config } from './config.js';
import { buildContainer } from './container.js';
import { openRuntime } from './runtime.js';

export class UsageError extends Error {}

const USAGE = `Usage:
  npm run cli -- account create --company-name NAME --email EMAIL [--timezone Europe/Berlin]
  npm run cli -- user create --account ACCOUNT_ID --email EMAIL --role admin|viewer
  npm run cli -- token create --user USER_ID
  npm run cli -- token revoke --id TOKEN_ID`;

type Command = (accounts: AccountsService, options: Record<string, string | undefined>) => Promise<unknown>;

const COMMANDS: Record<string, Command> = {
  'account create': async (accounts, o) => {
    const created = await accounts.createAccount({ companyName: o['company-name']!, email: o.email!, timezone: o.timezone });
    return { accountId: created.accountId, userId: created.userId, apiToken: created.apiToken };
  },
  'user create': async (accounts, o) => {
    const created = await accounts.createUser({ accountId: o.account!, email: o.email!, role: o.role as 'admin' });
    return { userId: created.userId, apiToken: created.apiToken };
  },
  'token create': async (accounts, o) => {
    const created = await accounts.createApiToken({ userId: o.user! });
    return { id: created.tokenId, userId: created.userId, apiToken: created.apiToken };
  },
  'token revoke': (accounts, o) => accounts.revokeApiToken({ id: o.id! }),
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
    options: Object.fromEntries(['company-name', 'email', 'timezone', 'account', 'role', 'user', 'id'].map((name) => [name, { type: 'string' as const }])),
    strict: true,
  });
  const runtime = await openRuntime({ ...config, DB_POOL_SIZE: 1 });
  try {
    const accounts = buildContainer({ ...runtime, refreshTokenTtlSeconds: config.REFRESH_TOKEN_TTL }).resolve(AccountsService);
    return await RequestContext.create(runtime.orm.em, () => command(accounts, values as Record<string, string | undefined>));
  } finally {
    await runtime.close();
  }
}
