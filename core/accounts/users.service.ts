import type { Actor } from '../auth/actor.js';
import type { Clock } from '../clock.js';
import type { Account, User } from '../domain/accounts/account.js';
import { presentAddress } from '../domain/addresses/address.js';
import { NotFoundError } from '../errors.js';
import { causedBy, type EventOutbox } from '../events/outbox.js';
import { mergeUpdate } from '../patching.js';
import type { ResourceRepository } from '../resource.repository.js';
import { listPage, loadOwned, timestampsOf, type ListResult, type ResourceService } from '../resource.service.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { AccountRepository } from './accounts.repository.js';
import { accountProfileCommand, listUsersQuery, READ_ONLY_ACCOUNT_FIELDS, updateAccountCommand, type AccountView, type UserView } from './accounts.commands.js';

export type UserRepository = ResourceRepository<User>;

/** What changing the account needs besides its repositories. */
export interface AccountChangeDeps {
  uow: UnitOfWork;
  clock: Clock;
  outbox: EventOutbox;
}

export function presentUser(user: User): UserView {
  const { id, firstName, lastName, phone1, phone2, email, role } = user;
  return { id, firstName, lastName, phone1, phone2, email, role, ...timestampsOf(user) };
}

function presentAccount(account: Account): AccountView {
  const { id, companyName, timezone, currency, vatId, taxNumber, registerCourt, registerNumber, sepaCreditorId, disputeResolutionText } = account;
  // Fresh copies in the documented key order (jsonb does not keep key order).
  const { email, phone, website } = account.contact;
  return {
    id,
    companyName,
    timezone,
    currency,
    address: account.address && presentAddress(account.address),
    vatId,
    taxNumber,
    registerCourt,
    registerNumber,
    managingDirectors: [...account.managingDirectors],
    contact: { email, phone, website },
    bankAccount: account.bankAccount && { accountHolder: account.bankAccount.accountHolder, iban: account.bankAccount.iban, bic: account.bankAccount.bic },
    sepaCreditorId,
    disputeResolutionText,
    ...timestampsOf(account),
  };
}

/** What the API shows of the caller's own account and its users (never tokens), and the account's seller profile. */
export class UsersService implements ResourceService<UserView> {
  constructor(
    private readonly users: UserRepository,
    private readonly accounts: AccountRepository,
    private readonly deps: AccountChangeDeps,
  ) {}

  async getAccount(actor: Actor, id: string): Promise<AccountView> {
    return presentAccount(await this.loadAccount(actor, id));
  }

  /**
   * JSON merge patch of the caller's account: its company name and seller profile (`timezone` and
   * `currency` are read-only). Records `account.updated` with the account as GET shows it.
   */
  async updateAccount(actor: Actor, id: string, patch: unknown): Promise<AccountView> {
    return this.deps.uow.transactional(async () => {
      const account = await this.loadAccount(actor, id);
      const { merged } = mergeUpdate({
        current: presentAccount(account),
        patch,
        patchSchema: updateAccountCommand,
        createSchema: accountProfileCommand,
        readOnly: READ_ONLY_ACCOUNT_FIELDS,
      });
      const { timezone: _timezone, currency: _currency, ...profile } = merged;
      Object.assign(account, { ...profile, updatedAt: this.deps.clock.now() });
      const view = presentAccount(account);
      await this.deps.outbox.record([{ ...causedBy(actor), type: 'account.updated', entityId: account.id, data: view, siteIds: [] }]);
      return view;
    });
  }

  async get(actor: Actor, id: string): Promise<UserView> {
    return presentUser(await loadOwned(this.users, actor, 'user', id));
  }

  list(actor: Actor, query: unknown): Promise<ListResult<UserView>> {
    return listPage(this.users, actor, listUsersQuery, query, (items) => items.map(presentUser));
  }

  /** Only the caller's own account exists for it: another account's id is 404 like an unknown one. */
  private async loadAccount(actor: Actor, id: string): Promise<Account> {
    const account = id === actor.accountId ? await this.accounts.findAccount(id) : null;
    if (!account) throw new NotFoundError('account', id);
    return account;
  }
}
