import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { EventType } from '../../core/domain/events/event.js';
import type { NewEvent } from '../../core/events/outbox.js';
import { MikroEventOutbox, MikroEventRepository } from '../../core/persistence/events/event.persistence.js';
import { MikroWebhookEndpointRepository } from '../../core/persistence/webhooks/webhook.persistence.js';
import { clockAt, newEndpoint, useRepositoryDatabase } from '../support/repository-database.js';

describe('MikroEventOutbox and MikroEventRepository on PostgreSQL', () => {
  const db = useRepositoryDatabase();
  const events = () => new MikroEventRepository(db.orm.em);
  const record = (iso: string, batch: NewEvent[]) => db.inTransaction(() => new MikroEventOutbox(db.orm.em, clockAt(iso)).record(batch));
  const event = (accountId: string, type: EventType, label: string, entityId: string = randomUUID()): NewEvent => ({
    accountId,
    userId: null,
    type,
    entityId,
    data: { label },
    siteIds: [],
  });
  const endpoint = async (accountId: string, types: string[], enabled = true) => {
    const added = newEndpoint(accountId, types, enabled);
    await db.inTransaction(async () => new MikroWebhookEndpointRepository(db.orm.em).add(added));
    return added.id;
  };
  const eventRows = (accountIds: string[]) =>
    db.sql(`select id, account_id, type, data->>'label' as label, sequence, created_at from events where account_id = any($1::uuid[]) order by sequence`, [accountIds]);

  it('writes the events in the order given, stamped by the clock, each with its own increasing sequence', async () => {
    const { accountId, userId } = await db.account();
    const site = randomUUID();
    await record('2026-03-01T10:00:00.000Z', [
      { accountId, userId, type: 'site.created', entityId: site, data: { label: 'first', nested: { a: [1, 2] } }, siteIds: [site] },
      event(accountId, 'meter.created', 'second'),
      event(accountId, 'site.updated', 'third', site),
    ]);
    await record('2026-03-01T10:00:00.000Z', []);
    const rows = await eventRows([accountId]);
    expect(rows.map((r) => [r.type, r.label, r.created_at.toISOString()])).toEqual([
      ['site.created', 'first', '2026-03-01T10:00:00.000Z'],
      ['meter.created', 'second', '2026-03-01T10:00:00.000Z'],
      ['site.updated', 'third', '2026-03-01T10:00:00.000Z'],
    ]);
    const sequences = rows.map((r) => BigInt(r.sequence));
    expect(sequences[0]! < sequences[1]! && sequences[1]! < sequences[2]!).toBe(true);

    const first = await db.inContext(() => events().findById(accountId, rows[0]!.id));
    expect(first).toMatchObject({
      id: rows[0]!.id,
      accountId,
      sequence: rows[0]!.sequence,
      type: 'site.created',
      userId,
      siteIds: [site],
      entityId: site,
      data: { label: 'first', nested: { a: [1, 2] } },
      createdAt: new Date('2026-03-01T10:00:00.000Z'),
    });
  });

  it('fans each event out to the enabled endpoints of its account that subscribe to its type', async () => {
    const { accountId } = await db.account();
    const other = await db.account();
    const all = await endpoint(accountId, ['*']);
    const sites = await endpoint(accountId, ['site.created', 'site.updated']);
    await endpoint(accountId, ['*'], false);
    await endpoint(accountId, ['customer.created']);
    const foreign = await endpoint(other.accountId, ['*']);
    const entity = randomUUID();
    await record('2026-03-01T11:00:00.000Z', [
      event(accountId, 'site.created', 'a', entity),
      event(accountId, 'meter.created', 'b'),
      event(other.accountId, 'site.created', 'c'),
    ]);

    const deliveries = await db.sql(
      `select d.endpoint_id, e.data->>'label' as label, d.account_id, d.event_type, d.entity_id = e.entity_id as same_entity,
              d.event_sequence = e.sequence as same_sequence, d.state, d.attempts, d.next_attempt_at, d.delivered_at
         from webhook_deliveries d join events e on e.id = d.event_id
        where d.account_id = any($1::uuid[]) order by e.sequence, d.endpoint_id`,
      [[accountId, other.accountId]],
    );
    const pending = { same_entity: true, same_sequence: true, state: 'pending', attempts: [], next_attempt_at: new Date('2026-03-01T11:00:00.000Z'), delivered_at: null };
    const expected = [
      [all, 'a', accountId, 'site.created'],
      [sites, 'a', accountId, 'site.created'],
      [all, 'b', accountId, 'meter.created'],
      [foreign, 'c', other.accountId, 'site.created'],
    ];
    // By event, then endpoint id (compared as text, which is how PostgreSQL orders uuids).
    const order = (x: string[], y: string[]) => (x[1]! + x[0]! < y[1]! + y[0]! ? -1 : 1);
    expect(deliveries).toEqual(
      expected.sort(order).map(([endpoint_id, label, account_id, event_type]) => ({ endpoint_id, label, account_id, event_type, ...pending })),
    );
  });

  it('writes nothing when the unit of work rolls back', async () => {
    const { accountId } = await db.account();
    await endpoint(accountId, ['*']);
    await expect(
      db.inTransaction(async () => {
        await new MikroEventOutbox(db.orm.em, clockAt('2026-03-01T12:00:00.000Z')).record([event(accountId, 'site.created', 'doomed')]);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await eventRows([accountId])).toEqual([]);
    expect(await db.sql('select id from webhook_deliveries where account_id = $1', [accountId])).toEqual([]);
  });

  it('lists the events of one account by sequence, filtered by type and the half-open time window', async () => {
    const { accountId } = await db.account();
    const other = await db.account();
    await record('2026-03-02T10:00:00.000Z', [event(accountId, 'site.created', 'a1')]);
    await record('2026-03-02T11:00:00.000Z', [event(accountId, 'meter.created', 'a2'), event(accountId, 'site.updated', 'a3'), event(other.accountId, 'site.created', 'b1')]);
    await record('2026-03-02T12:00:00.000Z', [event(accountId, 'site.created', 'a4')]);

    const list = async (account: string, filter: Parameters<MikroEventRepository['list']>[1], limit = 10, offset = 0) => {
      const page = await db.inContext(() => events().list(account, filter, { limit, offset }));
      return { labels: page.items.map((e) => e.data.label), total: page.total };
    };
    const cases: [string, Awaited<ReturnType<typeof list>>, Awaited<ReturnType<typeof list>>][] = [
      ['all', await list(accountId, {}), { labels: ['a1', 'a2', 'a3', 'a4'], total: 4 }],
      ['by type', await list(accountId, { type: 'site.created' }), { labels: ['a1', 'a4'], total: 2 }],
      ['window', await list(accountId, { startDateTime: '2026-03-02T11:00:00.000Z', endDateTime: '2026-03-02T12:00:00.000Z' }), { labels: ['a2', 'a3'], total: 2 }],
      ['type and start', await list(accountId, { type: 'site.created', startDateTime: '2026-03-02T11:00:00.000Z' }), { labels: ['a4'], total: 1 }],
      ['before the end', await list(accountId, { endDateTime: '2026-03-02T10:00:00.001Z' }), { labels: ['a1'], total: 1 }],
      ['a page', await list(accountId, {}, 2, 1), { labels: ['a2', 'a3'], total: 4 }],
      ['other account', await list(other.accountId, {}), { labels: ['b1'], total: 1 }],
    ];
    for (const [name, actual, expected] of cases) expect(actual, name).toEqual(expected);

    const [mine] = await eventRows([accountId]);
    expect(await db.inContext(() => events().findById(other.accountId, mine!.id))).toBeNull();
    expect(await db.inContext(() => events().findByIds(other.accountId, [mine!.id]))).toEqual([]);
  });
});
