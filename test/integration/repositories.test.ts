import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inject } from 'vitest';
import { AccountsService } from '../../core/accounts/accounts.service.js';
import { systemClock } from '../../core/clock.js';
import { ConflictError } from '../../core/errors.js';
import { RefreshToken, type Account } from '../../core/domain/accounts/account.js';
import { Customer } from '../../core/domain/customers/customer.js';
import { Site } from '../../core/domain/sites/site.js';
import { CustomerEntity } from '../../core/persistence/customers/customer.persistence.js';
import { boundQuery } from '../../core/persistence/bound-query.js';
import { insertUnnested } from '../../core/persistence/insert-unnested.js';
import { MikroAccountRepository } from '../../core/persistence/accounts/account.repository.js';
import { MikroCredentialsRepository } from '../../core/persistence/accounts/credentials.repository.js';
import { MikroTemplateRepository } from '../../core/persistence/billing/template.persistence.js';
import { openOrm } from '../../core/persistence/orm.js';
import { inRequestScope } from '../../core/persistence/request-scope.js';
import { MikroMeterRepository } from '../../core/persistence/meters/meter.persistence.js';
import { MikroSiteRepository } from '../../core/persistence/sites/site.repository.js';
import { MikroUnitOfWork } from '../../core/persistence/unit-of-work.js';
import { createTestDatabase, queryRows, type TestDatabase } from '../support/database.js';

/** PostgreSQL's error when a lock was not granted within lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03';

describe('repositories on PostgreSQL', () => {
  let database: TestDatabase;
  let orm: MikroORM;
  let accounts: AccountsService;
  const inContext = <T>(work: () => Promise<T>) => inRequestScope(orm.em, work);

  beforeAll(async () => {
    database = await createTestDatabase(inject('templateDatabase'));
    orm = await openOrm({ clientUrl: database.url, poolSize: 4 });
    accounts = new AccountsService(new MikroAccountRepository(orm.em), new MikroTemplateRepository(orm.em), new MikroUnitOfWork(orm.em), systemClock);
  });
  afterAll(async () => {
    await orm.close();
    await database.drop();
  });

  const newSite = (accountId: string, name: string, createdAt: Date) =>
    Object.assign(new Site(), {
      id: randomUUID(),
      accountId,
      name,
      type: 'unbalanced_accurate',
      balanceResolution: 'PT15M',
      address: { line1: null, line2: null, line3: null, line4: null, locality: 'Berlin', postCode: '10115', country: 'DE' },
      customAttributes: {},
      createdAt,
      updatedAt: createdAt,
    });

  it('lists sites of one account only, by createdAt then id, with the total', async () => {
    const a = await inContext(() => accounts.createAccount({ companyName: 'A', email: 'a@a.test' }));
    const b = await inContext(() => accounts.createAccount({ companyName: 'B', email: 'b@b.test' }));
    const sameInstant = new Date('2026-01-01T00:00:00.000Z');
    await inContext(async () => {
      const repo = new MikroSiteRepository(orm.em);
      await new MikroUnitOfWork(orm.em).transactional(async () => {
        repo.add(newSite(a.accountId, 'later', new Date('2026-02-01T00:00:00.000Z')));
        repo.add(newSite(a.accountId, 'tie-1', sameInstant));
        repo.add(newSite(a.accountId, 'tie-2', sameInstant));
        repo.add(newSite(b.accountId, 'foreign', sameInstant));
      });
    });
    const page = await inContext(() => new MikroSiteRepository(orm.em).list(a.accountId, {}, { limit: 10, offset: 0 }));
    expect(page.total).toBe(3);
    const ties = page.items.filter((s) => s.name.startsWith('tie')).map((s) => s.id);
    expect(ties).toEqual([...ties].sort());
    expect(page.items.map((s) => s.name).at(-1)).toBe('later');
    const foreign = await inContext(() => new MikroSiteRepository(orm.em).list(b.accountId, {}, { limit: 10, offset: 0 }));
    expect(foreign.items.map((s) => s.name)).toEqual(['foreign']);
    expect(await inContext(() => new MikroSiteRepository(orm.em).findById(b.accountId, page.items[0]!.id))).toBeNull();
  });

  it('keeps what a unit of work apart loads and writes out of the surrounding one, and commits its transaction', async () => {
    const { accountId } = await inContext(() => accounts.createAccount({ companyName: 'Apart', email: 'apart@a.test' }));
    const uow = new MikroUnitOfWork(orm.em);
    const repo = new MikroSiteRepository(orm.em);
    const site = newSite(accountId, 'apart', new Date('2026-03-01T00:00:00.000Z'));
    await inContext(async () => {
      const outer = orm.em.getContext().getUnitOfWork().getIdentityMap().keys().length;
      const held = await uow.apart(async () => {
        await uow.transactional(async () => repo.add(site));
        await repo.findById(accountId, site.id);
        return orm.em.getContext().getUnitOfWork().getIdentityMap().keys().length;
      });
      expect(held).toBeGreaterThan(0);
      expect(orm.em.getContext().getUnitOfWork().getIdentityMap().keys().length).toBe(outer);
    });
    expect((await inContext(() => repo.findById(accountId, site.id)))?.name).toBe('apart');
  });

  it('forks the EntityManager of a scope when its work first touches the database, once, and never outside a scope', async () => {
    const { accountId } = await inContext(() => accounts.createAccount({ companyName: 'Scope', email: 'scope@a.test' }));
    const site = newSite(accountId, 'scoped', new Date('2026-03-01T00:00:00.000Z'));
    await inContext(() => new MikroUnitOfWork(orm.em).transactional(async () => new MikroSiteRepository(orm.em).add(site)));
    const repo = new MikroSiteRepository(orm.em);
    const forks = vi.spyOn(orm.em, 'fork');
    try {
      expect(await inContext(async () => 'answered from memory')).toBe('answered from memory');
      expect(forks).not.toHaveBeenCalled();
      const [first, again, other] = await inContext(async () => {
        const first = await repo.findById(accountId, site.id);
        await new Promise((resolve) => setImmediate(resolve));
        const again = await repo.findById(accountId, site.id);
        return [first, again, await inContext(() => repo.findById(accountId, site.id))];
      });
      expect(first?.name).toBe('scoped');
      // One identity map per scope: the same object across awaits, another in a scope within it.
      expect(again).toBe(first);
      expect(other).not.toBe(first);
      expect(other?.id).toBe(site.id);
      // The scope within forked the enclosing scope's manager, not the global one.
      expect(forks).toHaveBeenCalledTimes(1);
    } finally {
      forks.mockRestore();
    }
    await expect(repo.findById(accountId, site.id)).rejects.toThrow(/global EntityManager/);
  });

  it('rolls a failed unit of work back completely', async () => {
    const account = await inContext(() => accounts.createAccount({ companyName: 'C', email: 'c@c.test' }));
    await expect(
      inContext(() =>
        new MikroUnitOfWork(orm.em).transactional(async () => {
          new MikroSiteRepository(orm.em).add(newSite(account.accountId, 'doomed', new Date()));
          throw new Error('boom');
        }),
      ),
    ).rejects.toThrow('boom');
    const page = await inContext(() => new MikroSiteRepository(orm.em).list(account.accountId, {}, { limit: 10, offset: 0 }));
    expect(page.total).toBe(0);
  });

  it('runs a use case with a recheck again when PostgreSQL aborts it to end a deadlock; without one the victim learns it was a conflict', async () => {
    const { accountId } = await inContext(() => accounts.createAccount({ companyName: 'Deadlock', email: 'deadlock@d.test' }));
    const [a, b] = [newSite(accountId, 'a', new Date()), newSite(accountId, 'b', new Date())];
    await inContext(() => new MikroUnitOfWork(orm.em).transactional(async () => new MikroSiteRepository(orm.em).add(a)));
    await inContext(() => new MikroUnitOfWork(orm.em).transactional(async () => new MikroSiteRepository(orm.em).add(b)));
    const lock = (id: string) => orm.em.execute('select id from sites where account_id = ? and id = ? for update', [accountId, id]);
    /** Two transactions locking the sites in opposite orders, each waiting until the other holds its first. */
    const crosswise = async (recheck?: () => Promise<void>) => {
      let attempts = 0;
      const holding = [Promise.withResolvers<void>(), Promise.withResolvers<void>()];
      const bothHoldOne = Promise.all(holding.map((h) => h.promise));
      const run = (index: number, [first, second]: [string, string]) =>
        inContext(() =>
          new MikroUnitOfWork(orm.em).transactional(async () => {
            attempts++;
            await lock(first);
            holding[index]!.resolve();
            await bothHoldOne;
            await lock(second);
            return index;
          }, recheck),
        );
      const outcomes = await Promise.allSettled([run(0, [a.id, b.id]), run(1, [b.id, a.id])]);
      return { attempts, outcomes };
    };

    let rechecks = 0;
    const retried = await crosswise(async () => void rechecks++);
    expect(retried.outcomes).toEqual([{ status: 'fulfilled', value: 0 }, { status: 'fulfilled', value: 1 }]);
    expect([retried.attempts, rechecks]).toEqual([3, 0]);

    const told = await crosswise();
    expect(told.attempts).toBe(2);
    expect(told.outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const victim = told.outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(victim.reason).toMatchObject({ code: 'write_conflict' });
  });

  it("answers with its recheck's error when a use case is a deadlock's victim at every attempt, else a write conflict", async () => {
    const { accountId } = await inContext(() => accounts.createAccount({ companyName: 'Always', email: 'always@d.test' }));
    // Every insert of a site named "victim" fails as PostgreSQL fails a deadlock's victim.
    await queryRows(
      database.url,
      `create function planted_victim() returns trigger language plpgsql as $$
       begin raise exception 'planted deadlock' using errcode = '40P01'; end $$;
       create trigger planted_victim before insert on sites for each row when (new.name = 'victim') execute function planted_victim()`,
    );
    try {
      let attempts = 0;
      const attempt = (recheck: () => Promise<void>) =>
        inContext(() =>
          new MikroUnitOfWork(orm.em).transactional(async () => {
            attempts++;
            new MikroSiteRepository(orm.em).add(newSite(accountId, 'victim', new Date()));
          }, recheck),
        );
      await expect(attempt(async () => Promise.reject(new ConflictError('site_taken', 'Another request took it.')))).rejects.toMatchObject({ code: 'site_taken' });
      expect(attempts).toBe(3);
      await expect(attempt(async () => {})).rejects.toMatchObject({ code: 'write_conflict' });
      expect(attempts).toBe(6);
      expect(await queryRows(database.url, 'select id from sites where account_id = $1', [accountId])).toEqual([]);
    } finally {
      await queryRows(database.url, 'drop trigger planted_victim on sites; drop function planted_victim');
    }
  });

  it("stores a record made before the transaction when a retry follows a deadlock in the record's own insert", async () => {
    const { accountId } = await inContext(() => accounts.createAccount({ companyName: 'Planted', email: 'planted@d.test' }));
    // The insert of a site named "retried" fails once as PostgreSQL fails a deadlock's victim (a sequence is not rolled back).
    await queryRows(
      database.url,
      `create sequence planted_deadlock;
       create function planted_deadlock() returns trigger language plpgsql as $$
       begin
         if nextval('planted_deadlock') = 1 then raise exception 'planted deadlock' using errcode = '40P01'; end if;
         return new;
       end $$;
       create trigger planted_deadlock before insert on sites for each row when (new.name = 'retried') execute function planted_deadlock()`,
    );
    try {
      const site = newSite(accountId, 'retried', new Date());
      let attempts = 0;
      await inContext(() =>
        new MikroUnitOfWork(orm.em).transactional(
          async () => {
            attempts++;
            new MikroSiteRepository(orm.em).add(site);
          },
          async () => {},
        ),
      );
      expect(attempts).toBe(2);
      expect(await queryRows(database.url, 'select id from sites where account_id = $1', [accountId])).toEqual([{ id: site.id }]);
    } finally {
      await queryRows(database.url, 'drop trigger planted_deadlock on sites; drop function planted_deadlock; drop sequence planted_deadlock');
    }
  });

  it('consumes a refresh token exactly once under concurrency', async () => {
    const created = await inContext(() => accounts.createAccount({ companyName: 'D', email: 'd@d.test' }));
    const hash = randomUUID().replace(/-/g, '').padEnd(64, '0');
    const now = new Date();
    await inContext(async () => {
      const repo = new MikroCredentialsRepository(orm.em);
      await new MikroUnitOfWork(orm.em).transactional(async () => {
        repo.addRefreshToken(
          Object.assign(new RefreshToken(), {
            id: randomUUID(),
            accountId: created.accountId,
            apiTokenId: created.tokenId,
            familyId: randomUUID(),
            tokenHash: hash,
            expiresAt: new Date(now.getTime() + 60_000),
            usedAt: null,
            revokedAt: null,
            createdAt: now,
          }),
        );
      });
    });
    const attempts = await Promise.all(
      Array.from({ length: 4 }, () => inContext(() => new MikroCredentialsRepository(orm.em).consumeRefreshToken({ hash, accountId: null }, new Date()))),
    );
    expect(attempts.filter((t) => t !== null)).toHaveLength(1);
  });

  it('stores records inserted with one array per column exactly as MikroORM insertMany stores them', async () => {
    const { accountId } = await inContext(() => accounts.createAccount({ companyName: 'Arrays', email: 'arrays@a.test' }));
    // Any text PostgreSQL can hold: quotes, commas, braces, backslashes and NULL-like words matter to array literals.
    const text = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.constantFrom('NULL', 'null', '"', '\\', '{a,b}', ' ', '')).filter((s) => !s.includes('\u0000'));
    const nullable = fc.option(text, { nil: null });
    const json = fc.jsonValue().map((value) => JSON.parse(JSON.stringify(value).replace(/\\u0000/g, '')) as unknown);
    const address = fc.option(fc.record({ line1: nullable, line2: nullable, line3: nullable, line4: nullable, locality: text, postCode: text, country: fc.constantFrom('DE', 'AT') }), { nil: null });
    const customer = fc.record({
      companyName: nullable,
      address,
      deliveryAddress: address,
      invoiceEmail: nullable,
      email: nullable,
      salutation: nullable,
      title: nullable,
      firstName: nullable,
      lastName: nullable,
      phone1: nullable,
      phone2: nullable,
      vatId: fc.option(fc.string({ maxLength: 20 }).filter((s) => !s.includes('\u0000')), { nil: null }),
      buyerReference: nullable,
      invoiceFormat: fc.constantFrom('pdf', 'zugferd', 'xrechnung'),
      customAttributes: fc.dictionary(fc.string({ maxLength: 8 }).filter((s) => !s.includes('\u0000')), json, { maxKeys: 3 }),
      createdAt: fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2999-12-31T00:00:00Z'), noInvalidDate: true }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(customer, { minLength: 1, maxLength: 5 }), async (drawn) => {
        const pairs = drawn.map((fields) => {
          const record = () => Object.assign(new Customer(), { ...fields, id: randomUUID(), accountId, number: randomUUID(), updatedAt: fields.createdAt });
          return [record(), record()] as const;
        });
        await inContext(async () => {
          await orm.em.insertMany(CustomerEntity, pairs.map(([byMikro]) => byMikro));
          await insertUnnested(orm.em, CustomerEntity, pairs.map(([, byArrays]) => byArrays));
        });
        const stored = async (ids: string[]) =>
          (await boundQuery<{ row: Record<string, unknown> }>(
            orm.em.fork(),
            `select to_jsonb(c) - 'id' - 'number' as row from customers c join unnest(?::uuid[]) with ordinality as o(id, n) on o.id = c.id order by o.n`,
            [ids],
          )).map(({ row }) => row);
        expect(await stored(pairs.map(([, byArrays]) => byArrays.id))).toEqual(await stored(pairs.map(([byMikro]) => byMikro.id)));
      }),
      { numRuns: 30 },
    );
  });

  it('serialises the lockers of a site or a meter, but not the writes of rows that reference it', async () => {
    const { accountId } = await inContext(() => accounts.createAccount({ companyName: 'Locks', email: 'locks@a.test' }));
    const site = newSite(accountId, 'locked', new Date());
    await inContext(() => new MikroUnitOfWork(orm.em).transactional(async () => new MikroSiteRepository(orm.em).add(site)));
    const meterId = randomUUID();
    await queryRows(
      database.url,
      `insert into meters (id, account_id, site_id, direction, identifier, start_date, measuring, grid, custom_attributes, created_at, updated_at)
       values ($1, $2, $3, 'consumer', 'LOCK-1', now(), 'load_profile_accurate', false, '{}', now(), now())`,
      [meterId, accountId, site.id],
    );
    /** Runs a statement in a session of its own that gives up after waiting 300 ms for a lock: whether it gave up. */
    const waited = async (sql: string, params: unknown[]): Promise<boolean> => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        await client.query(`set lock_timeout = '300ms'`);
        await client.query(sql, params);
        return false;
      } catch (error) {
        if ((error as { code?: string }).code === LOCK_NOT_AVAILABLE) return true;
        throw error;
      } finally {
        await client.end();
      }
    };
    const cases = [
      {
        lock: () => new MikroSiteRepository(orm.em).lock(accountId, site.id),
        // The worker marks what is to be balanced again while settings of the site change.
        referencing: [`insert into balancing_dirty_ranges (id, account_id, site_id, from_at, to_at) values (gen_random_uuid(), $1, $2, now(), now())`, [accountId, site.id]],
      },
      {
        lock: () => new MikroMeterRepository(orm.em).lock(accountId, meterId),
        // Ingest writes the meter's values while it is assigned to a contract.
        referencing: [`insert into measurement_days (account_id, meter_id, day, "values") values ($1, $2, '2026-01-01', '{1}')`, [accountId, meterId]],
      },
    ] as const;
    for (const { lock, referencing } of cases) {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const holding = new Promise<void>((resolve) => (locked = resolve));
      const holder = inContext(() =>
        new MikroUnitOfWork(orm.em).transactional(async () => {
          await lock();
          locked();
          await released;
        }),
      );
      await holding;
      try {
        expect(await waited(referencing[0], [...referencing[1]])).toBe(false);
        const second = inContext(() =>
          new MikroUnitOfWork(orm.em).transactional(async () => {
            await orm.em.execute(`set local lock_timeout = '300ms'`);
            await lock();
          }),
        );
        await expect(second).rejects.toMatchObject({ code: LOCK_NOT_AVAILABLE });
      } finally {
        release();
        await holder;
      }
    }
  });

  it('keeps account_id on every table', async () => {
    const rows = await orm.em.fork().getConnection().execute<{ table_name: string }[]>(
      `select table_name from information_schema.tables t where table_schema = 'public' and table_name <> 'mikro_orm_migrations'
       and not exists (select 1 from information_schema.columns c where c.table_name = t.table_name and c.column_name = 'account_id')`,
    );
    expect(rows).toEqual([]);
    const account: Account | null = await inContext(() => new MikroAccountRepository(orm.em).findAccount(randomUUID()));
    expect(account).toBeNull();
  });
});
