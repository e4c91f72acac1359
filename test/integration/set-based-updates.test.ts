import { randomUUID } from 'node:crypto';
import { MikroORM, PostgreSqlDriver } from '@mikro-orm/postgresql';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AccountsService } from '../../core/accounts/accounts.service.js';
import { systemClock } from '../../core/clock.js';
import { Customer } from '../../core/domain/customers/customer.js';
import { MikroAccountRepository } from '../../core/persistence/accounts/account.repository.js';
import { MikroTemplateRepository } from '../../core/persistence/billing/template.persistence.js';
import { boundQuery } from '../../core/persistence/bound-query.js';
import { CustomerEntity } from '../../core/persistence/customers/customer.persistence.js';
import { openOrm, ormConfig } from '../../core/persistence/orm.js';
import { inRequestScope } from '../../core/persistence/request-scope.js';
import { MikroUnitOfWork } from '../../core/persistence/unit-of-work.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

describe('batch updates joined as arrays', () => {
  let database: TestDatabase;
  let orm: MikroORM;
  let stock: MikroORM;
  let accountId: string;
  let otherAccountId: string;
  const statements: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(inject('templateDatabase'));
    orm = await openOrm({ clientUrl: database.url, poolSize: 2, onQuery: (sql) => statements.push(sql) });
    stock = await MikroORM.init({ ...ormConfig({ clientUrl: database.url, poolSize: 2 }), driver: PostgreSqlDriver });
    const accounts = new AccountsService(new MikroAccountRepository(orm.em), new MikroTemplateRepository(orm.em), new MikroUnitOfWork(orm.em), systemClock);
    ({ accountId } = await inRequestScope(orm.em, () => accounts.createAccount({ companyName: 'Updates', email: 'updates@a.test' })));
    ({ accountId: otherAccountId } = await inRequestScope(orm.em, () => accounts.createAccount({ companyName: 'Other', email: 'other@a.test' })));
  });
  afterAll(async () => {
    await orm.close();
    await stock.close();
    await database.drop();
  });

  // Any text PostgreSQL can hold: quotes, commas, braces, backslashes and NULL-like words matter to array literals.
  const text = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.constantFrom('NULL', 'null', '"', '\\', '{a,b}', ' ', '')).filter((s) => !s.includes('\u0000'));
  const nullable = fc.option(text, { nil: null });
  const json = fc.jsonValue().map((value) => JSON.parse(JSON.stringify(value).replace(/\\u0000/g, '')) as unknown);
  const address = fc.option(fc.record({ line1: nullable, line2: nullable, line3: nullable, line4: nullable, locality: text, postCode: text, country: fc.constantFrom('DE', 'AT') }), { nil: null });
  /** What one customer of a batch changes: its update time, and any subset of the rest, so that rows of a batch set different columns. */
  const change = fc.record(
    {
      companyName: nullable,
      address,
      email: nullable,
      lastName: nullable,
      invoiceFormat: fc.constantFrom('pdf', 'facturx', 'xrechnung'),
      customAttributes: fc.dictionary(fc.string({ maxLength: 8 }).filter((s) => !s.includes('\u0000')), json, { maxKeys: 3 }),
      updatedAt: fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2999-12-31T00:00:00Z'), noInvalidDate: true }),
    },
    { requiredKeys: ['updatedAt'] },
  );

  const stored = async (ids: readonly string[]) =>
    (
      await boundQuery<{ row: Record<string, unknown> }>(
        orm.em.fork(),
        `select to_jsonb(c) - 'id' - 'number' as row from customers c join unnest(?::uuid[]) with ordinality as o(id, n) on o.id = c.id order by o.n`,
        [ids],
      )
    ).map(({ row }) => row);

  const customer = (ofAccount: string) => {
    const now = new Date('2026-11-29T10:00:00Z');
    return Object.assign(new Customer(), { id: randomUUID(), accountId: ofAccount, number: randomUUID(), invoiceFormat: 'pdf', customAttributes: {}, createdAt: now, updatedAt: now });
  };

  /** Loads the customers in a unit of work of `by`, changes each as drawn and commits. */
  const update = (by: MikroORM, ids: readonly string[], changes: readonly object[]) =>
    inRequestScope(by.em, async () => {
      const loaded = new Map((await by.em.find(CustomerEntity, { id: { $in: [...ids] } })).map((customer) => [customer.id, customer]));
      ids.forEach((id, i) => Object.assign(loaded.get(id)!, changes[i]));
      await by.em.flush();
    });

  it("stores what MikroORM's own batch update stores, with one statement per batch", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 6 }), async (changes) => {
        const ours = changes.map(() => customer(accountId));
        const theirs = changes.map(() => customer(accountId));
        await inRequestScope(orm.em, () => orm.em.insertMany(CustomerEntity, [...ours, ...theirs]));
        statements.length = 0;
        await update(orm, ours.map((c) => c.id), changes);
        await update(stock, theirs.map((c) => c.id), changes);
        expect(await stored(ours.map((c) => c.id))).toEqual(await stored(theirs.map((c) => c.id)));
        // One customer changed is MikroORM's single-row update; a batch is one joined statement.
        const updates = statements.filter((sql) => sql.startsWith('update "customers"'));
        expect(updates).toHaveLength(1);
        if (changes.length >= 2) expect(updates[0]).toMatch(/^update "customers" as "t" set .* from unnest\(.*\) as "v"\(.*\) where "t"\."account_id" = \$\d+ and "t"\."id" = "v"\."k1"::uuid returning "t"\."account_id", "t"\."id"$/);
      }),
      { numRuns: 40 },
    );
  });

  it("leaves a batch of several accounts' rows to MikroORM's statement, which names each row's account", async () => {
    const both = [customer(accountId), customer(otherAccountId)];
    await inRequestScope(orm.em, () => orm.em.insertMany(CustomerEntity, both));
    statements.length = 0;
    await update(orm, both.map((c) => c.id), both.map((_, i) => ({ lastName: `Name ${i}` })));
    expect(statements.filter((sql) => sql.startsWith('update "customers"'))).toEqual([expect.stringMatching(/^update "customers" set "last_name" = case when/)]);
    expect((await stored(both.map((c) => c.id))).map((row) => row.last_name)).toEqual(['Name 0', 'Name 1']);
  });
});
