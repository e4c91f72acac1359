import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Actor } from '../auth/actor.js';
import { generateToken, hashToken } from '../auth/secret-token.js';
import type { Clock } from '../clock.js';
import { Account, ApiToken, User } from '../domain/accounts/account.js';
import { isUuid } from '../domain/ids.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { parseInput } from '../validation.js';
import { defaultTemplates, type TemplateRepository } from '../billing/catalogue/templates.service.js';
import type { AccountRepository } from './accounts.repository.js';
import { createAccountCommand, createApiTokenCommand, createUserCommand, revokeApiTokenCommand, updateUserRoleCommand, type UserView } from './accounts.commands.js';
import { presentUser } from './users.service.js';

export interface NewCredentials {
  accountId: string;
  userId: string;
  tokenId: string;
  apiToken: string;
}

/** Operator use cases behind the CLI: accounts, users and their API tokens. */
export class AccountsService {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly templates: TemplateRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** A fresh installation has no account yet: the start banner then says how to create one. */
  isFreshInstallation(): Promise<boolean> {
    return this.accounts.anyAccount().then((any) => !any);
  }

  /** Who an operator command acts as: the account's oldest admin (of the only account when none is named). */
  async operator(accountId?: string): Promise<Actor> {
    const user = accountId === undefined || isUuid(accountId) ? await this.accounts.findOperator(accountId) : null;
    if (!user) throw new NotFoundError('account', accountId ?? '(name one with --account: the database holds several or none)');
    return { accountId: user.accountId, userId: user.id, role: 'admin', clientId: 'cli' };
  }

  async createAccount(input: z.input<typeof createAccountCommand>): Promise<NewCredentials> {
    const command = parseInput(createAccountCommand, input);
    return this.uow.transactional(async () => {
      const now = this.clock.now();
      const account = Object.assign(new Account(), {
        id: randomUUID(),
        companyName: command.companyName,
        timezone: command.timezone,
        currency: 'EUR',
        // The seller profile starts empty; PATCH /v1/accounts/{id} completes it.
        address: null,
        vatId: null,
        taxNumber: null,
        registerCourt: null,
        registerNumber: null,
        managingDirectors: [],
        contact: { email: null, phone: null, website: null },
        bankAccount: null,
        sepaCreditorId: null,
        disputeResolutionText: null,
        createdAt: now,
        updatedAt: now,
      });
      this.accounts.addAccount(account);
      for (const template of defaultTemplates(account.id, now)) this.templates.add(template);
      return this.addUserWithToken({ accountId: account.id, email: command.email, role: 'admin', firstName: command.firstName, lastName: command.lastName });
    });
  }

  async createUser(input: z.input<typeof createUserCommand>): Promise<NewCredentials> {
    const command = parseInput(createUserCommand, input);
    return this.uow.transactional(async () => {
      if (!(await this.accounts.findAccount(command.accountId))) throw new NotFoundError('account', command.accountId);
      if (await this.accounts.isEmailTaken(command.accountId, command.email)) {
        throw new ConflictError('email_taken', `A user with e-mail ${command.email} exists in this account.`);
      }
      return this.addUserWithToken(command);
    });
  }

  /**
   * Takes effect on the user's next request: authentication compares the role an access token
   * claims with the stored one and refuses the token when they differ.
   */
  async updateUserRole(input: z.input<typeof updateUserRoleCommand>): Promise<UserView> {
    const { id, role } = parseInput(updateUserRoleCommand, input);
    return this.uow.transactional(async () => {
      const user = await this.accounts.findUser(id);
      if (!user) throw new NotFoundError('user', id);
      if (user.role !== role) Object.assign(user, { role, updatedAt: this.clock.now() });
      return presentUser(user);
    });
  }

  async createApiToken(input: z.input<typeof createApiTokenCommand>): Promise<NewCredentials> {
    const { userId } = parseInput(createApiTokenCommand, input);
    return this.uow.transactional(async () => {
      const user = await this.accounts.findUser(userId);
      if (!user) throw new NotFoundError('user', userId);
      return { accountId: user.accountId, userId: user.id, ...this.addApiToken(user) };
    });
  }

  async revokeApiToken(input: z.input<typeof revokeApiTokenCommand>): Promise<{ id: string; revokedAt: string }> {
    const { id } = parseInput(revokeApiTokenCommand, input);
    const now = this.clock.now();
    if (!(await this.accounts.revokeApiToken(id, now))) throw new NotFoundError('api_token', id);
    return { id, revokedAt: now.toISOString() };
  }

  private addUserWithToken(command: z.output<typeof createUserCommand>): NewCredentials {
    const now = this.clock.now();
    const user = Object.assign(new User(), {
      id: randomUUID(),
      accountId: command.accountId,
      firstName: command.firstName ?? null,
      lastName: command.lastName ?? null,
      phone1: command.phone1 ?? null,
      phone2: command.phone2 ?? null,
      email: command.email,
      role: command.role,
      createdAt: now,
      updatedAt: now,
    });
    this.accounts.addUser(user);
    return { accountId: user.accountId, userId: user.id, ...this.addApiToken(user) };
  }

  private addApiToken(user: User): { tokenId: string; apiToken: string } {
    const apiToken = generateToken('ebbs_api', user.accountId);
    const token = Object.assign(new ApiToken(), {
      id: randomUUID(),
      accountId: user.accountId,
      userId: user.id,
      tokenHash: hashToken(apiToken),
      createdAt: this.clock.now(),
      revokedAt: null,
    });
    this.accounts.addApiToken(token);
    return { tokenId: token.id, apiToken };
  }
}
