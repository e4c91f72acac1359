import type { Actor } from '../auth/actor.js';
import type { Account, User } from '../domain/accounts/account.js';
import { NotFoundError } from '../errors.js';
import type { ResourceRepository } from '../resource.repository.js';
import { listPage, loadOwned, timestampsOf, type ListResult, type ResourceService } from '../resource.service.js';
import type { AccountRepository } from './accounts.repository.js';
import { listUsersQuery, type AccountView, type UserView } from './accounts.commands.js';

export type UserRepository = ResourceRepository<User>;

export function presentUser(user: User): UserView {
  const { id, firstName, lastName, phone1, phone2, email, role } = user;
  return { id, firstName, lastName, phone1, phone2, email, role, ...timestampsOf(user) };
}

function presentAccount(account: Account): AccountView {
  const { id, companyName, timezone, currency } = account;
  return { id, companyName, timezone, currency, ...timestampsOf(account) };
}

/** What the API shows of the caller's own account and its users (never tokens). */
export class UsersService implements ResourceService<UserView> {
  constructor(
    private readonly users: UserRepository,
    private readonly accounts: AccountRepository,
  ) {}

  async getAccount(actor: Actor, id: string): Promise<AccountView> {
    const account = id === actor.accountId ? await this.accounts.findAccount(id) : null;
    if (!account) throw new NotFoundError('account', id);
    return presentAccount(account);
  }

  async get(actor: Actor, id: string): Promise<UserView> {
    return presentUser(await loadOwned(this.users, actor, 'user', id));
  }

  list(actor: Actor, query: unknown): Promise<ListResult<UserView>> {
    return listPage(this.users, actor, listUsersQuery, query, (items) => items.map(presentUser));
  }
}
