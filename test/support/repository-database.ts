import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { AccountsService, type NewCredentials } from '../../core/accounts/accounts.service.js';
import { systemClock } from '../../core/clock.js';
import { Meter, type Measuring } from '../../core/domain/meters/meter.js';
import type { FormulaComponent } from '../../core/domain/meters/formula.js';
import { Site, resolutionOf, type SiteType } from '../../core/domain/sites/site.js';
import { WebhookEndpoint } from '../../core/domain/webhooks/webhook.js';
import { MikroAccountRepository } from '../../core/persistence/accounts/account.repository.js';
import { MikroTemplateRepository } from '../../core/persistence/billing/template.persistence.js';
import { MikroMeterRepository } from '../../core/persistence/meters/meter.persistence.js';
import { openOrm } from '../../core/persistence/orm.js';
import { inRequestScope } from '../../core/persistence/request-scope.js';
import { MikroSiteRepository } from '../../core/persistence/sites/site.repository.js';
import { MikroUnitOfWork } from '../../core/persistence/unit-of-work.js';
import { createTestDatabase, queryRows, type TestDatabase } from './database.js';

/**
 * A migrated database of its own for one integration test file, with the ORM on it and minimal
 * fixtures written through the repositories (as app/container.ts builds them: on the global
 * EntityManager, which resolves to the fork of the current request scope).
 */
export interface RepositoryDatabase {
  orm: MikroORM;
  database: TestDatabase;
  /** Runs work in a request context of its own (a fresh EntityManager fork). */
  inContext<T>(work: () => Promise<T>): Promise<T>;
  /** Runs work in a request context and one committed transaction (the unit of work of the use cases). */
  inTransaction<T>(work: () => Promise<T>): Promise<T>;
  /** One statement on its own connection, for assertions on stored rows. */
  sql<R extends Record<string, any> = Record<string, any>>(text: string, params?: unknown[]): Promise<R[]>;
  /** A new account with its admin user and API token, through AccountsService. */
  account(): Promise<NewCredentials>;
  site(accountId: string, type?: SiteType): Promise<Site>;
  meter(accountId: string, siteId: string, extra?: Partial<Pick<Meter, 'direction' | 'grid'>> & { measuring?: Measuring; formula?: FormulaComponent[] }): Promise<Meter>;
  /** A contract of its own (customer and product too) on the site with an invoice for [periodStart, periodEnd) in `state`; answers the invoice's id. */
  invoice(accountId: string, siteId: string, periodStart: string, periodEnd: string, state?: 'draft' | 'issued'): Promise<string>;
  /** Resolves once `count` sessions of this database wait for a lock (proves that a lock blocks). */
  waitForLockWaiters(count: number): Promise<void>;
}

let sequence = 0;

export function useRepositoryDatabase(): RepositoryDatabase {
  let accounts: AccountsService;
  const db = {} as RepositoryDatabase;
  const inContext = <T>(work: () => Promise<T>) => inRequestScope(db.orm.em, work);
  Object.assign(db, {
    inContext,
    inTransaction: <T>(work: () => Promise<T>) => inContext(() => new MikroUnitOfWork(db.orm.em).transactional(work)),
    sql: (text: string, params: unknown[] = []) => queryRows(db.database.url, text, params),
    account: () => inContext(() => accounts.createAccount({ companyName: `Account ${++sequence}`, email: `admin${sequence}@example.test` })),
    async site(accountId: string, type: SiteType = 'balanced_accurate') {
      const now = new Date();
      const site = Object.assign(new Site(), {
        id: randomUUID(),
        accountId,
        name: `Site ${++sequence}`,
        type,
        balanceResolution: resolutionOf(type),
        address: { line1: null, line2: null, line3: null, line4: null, locality: 'Berlin', postCode: '10115', country: 'DE' },
        customAttributes: {},
        createdAt: now,
        updatedAt: now,
      });
      await db.inTransaction(async () => new MikroSiteRepository(db.orm.em).add(site));
      return site;
    },
    async meter(accountId: string, siteId: string, extra: Parameters<RepositoryDatabase['meter']>[2] = {}) {
      const now = new Date();
      const meter = Object.assign(new Meter(), {
        id: randomUUID(),
        accountId,
        siteId,
        mpoId: null,
        direction: extra.direction ?? 'consumer',
        identifier: `1EMH${++sequence}`,
        serial: null,
        startDate: new Date('2026-01-01T00:00:00.000Z'),
        measuring: extra.measuring ?? 'load_profile_accurate',
        grid: extra.grid ?? false,
        formula: extra.formula ?? null,
        customAttributes: {},
        createdAt: now,
        updatedAt: now,
      });
      await db.inTransaction(async () => new MikroMeterRepository(db.orm.em).add(meter));
      return meter;
    },
    async invoice(accountId: string, siteId: string, periodStart: string, periodEnd: string, state: 'draft' | 'issued' = 'draft') {
      const [customer, product, contract, invoice] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      await db.sql(`insert into customers (id, account_id, custom_attributes, created_at, updated_at) values ($1, $2, '{}', now(), now())`, [customer, accountId]);
      await db.sql(`insert into electricity_products (id, account_id, name, created_at, updated_at) values ($1, $2, 'Strom', now(), now())`, [product, accountId]);
      await db.sql(
        `insert into contracts (id, account_id, customer_id, electricity_product_id, site_id, dunning_block, start_date, number, custom_attributes, created_at, updated_at)
         values ($1, $2, $3, $4, $5, false, '2026-01-01', $6, '{}', now(), now())`,
        [contract, accountId, customer, product, siteId, contract.slice(0, 8)],
      );
      await db.sql(
        `insert into invoices (id, account_id, kind, number, contract_id, customer_id, period_start, period_end, state, net_total, taxes, gross_total, prepayments_total, amount_due, prepayment_ids, template_id, created_at, updated_at)
         values ($1, $2, 'invoice', $3, $4, $5, $6, $7, $8, 0, '[]', 0, 0, 0, '[]', (select id from templates where account_id = $2 limit 1), now(), now())`,
        [invoice, accountId, state === 'draft' ? null : `INV-2026-${invoice.slice(0, 6)}`, contract, customer, periodStart, periodEnd, state],
      );
      return invoice;
    },
    async waitForLockWaiters(count: number) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const [row] = await db.sql<{ n: number }>(
          `select count(*)::int as n from pg_locks where not granted and database = (select oid from pg_database where datname = current_database())`,
        );
        if (row!.n >= count) return;
        expect(Date.now(), `no ${count} session(s) waiting for a lock`).toBeLessThan(deadline);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  });

  beforeAll(async () => {
    db.database = await createTestDatabase(inject('templateDatabase'));
    db.orm = await openOrm({ clientUrl: db.database.url, poolSize: 6 });
    accounts = new AccountsService(new MikroAccountRepository(db.orm.em), new MikroTemplateRepository(db.orm.em), new MikroUnitOfWork(db.orm.em), systemClock);
  });
  afterAll(async () => {
    await db.orm?.close();
    await db.database?.drop();
  });
  return db;
}

/** A promise with its resolver, to hold a transaction open until the test lets it go. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** A webhook endpoint to add through its repository (the secret is opaque to the repositories). */
export function newEndpoint(accountId: string, events: string[], enabled = true): WebhookEndpoint {
  const now = new Date();
  return Object.assign(new WebhookEndpoint(), {
    id: randomUUID(),
    accountId,
    url: 'https://receiver.example.test/hook',
    events,
    headers: {},
    enabled,
    secret: 'sealed-secret',
    previousSecret: null,
    previousSecretExpiresAt: null,
    createdAt: now,
    updatedAt: now,
  });
}

/** A clock standing still at an instant. */
export const clockAt = (iso: string) => ({ now: () => new Date(iso) });
