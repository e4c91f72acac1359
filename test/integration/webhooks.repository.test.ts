import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EventType } from '../../core/domain/events/event.js';
import type { DeliveryState } from '../../core/domain/webhooks/webhook.js';
import { MikroEventOutbox } from '../../core/persistence/events/event.persistence.js';
import { MikroWebhookDeliveryRepository, MikroWebhookEndpointRepository } from '../../core/persistence/webhooks/webhook.persistence.js';
import type { AttemptResult } from '../../core/webhooks/webhooks.repository.js';
import { clockAt, newEndpoint, useRepositoryDatabase } from '../support/repository-database.js';

const T = '2026-03-01T10:00:00.000Z';
const after = (seconds: number) => new Date(Date.parse(T) + seconds * 1000);

describe('MikroWebhookDeliveryRepository and MikroWebhookEndpointRepository on PostgreSQL', () => {
  const db = useRepositoryDatabase();
  const deliveries = () => new MikroWebhookDeliveryRepository(db.orm.em);
  const endpoints = () => new MikroWebhookEndpointRepository(db.orm.em);
  let accountId: string;
  let otherAccountId: string;
  const endpoint = async (types: string[] = ['*'], account = accountId) => {
    const added = newEndpoint(account, types);
    await db.inTransaction(async () => endpoints().add(added));
    return added.id;
  };
  /** Records events (type, entity) at T through the outbox: the deliveries come with them. */
  const record = (batch: [EventType, string][]) =>
    db.inTransaction(() =>
      new MikroEventOutbox(db.orm.em, clockAt(T)).record(batch.map(([type, entityId]) => ({ accountId, userId: null, type, entityId, data: { type }, siteIds: [] }))),
    );
  /** The endpoint's deliveries by event sequence, with the delivery id under `type:entity-name`. */
  const deliveryIds = async (endpointId: string, names: Record<string, string>) =>
    Object.fromEntries(
      (await db.sql('select id, event_type, entity_id from webhook_deliveries where endpoint_id = $1 order by event_sequence', [endpointId])).map((r) => [
        `${r.event_type}:${Object.keys(names).find((name) => names[name] === r.entity_id)}`,
        r.id as string,
      ]),
    );
  const attempt = (deliveryId: string, state: DeliveryState, statusCode: number, nextAttemptAt: Date | null, at = after(1)): AttemptResult => ({
    deliveryId,
    state,
    nextAttemptAt,
    attempt: { attemptedAt: at.toISOString(), statusCode, durationMs: 12, error: statusCode >= 500 ? 'server error' : null },
  });
  const recordAttempts = (results: AttemptResult[], now = after(1), account = accountId) => db.inTransaction(() => deliveries().recordAttempts(account, results, now));

  beforeAll(async () => {
    accountId = (await db.account()).accountId;
    otherAccountId = (await db.account()).accountId;
  });

  it('due picks pending deliveries per endpoint in event order, holding back an entity behind its waiting retry', async () => {
    const [all, sitesOnly] = [await endpoint(['*']), await endpoint(['site.created'])];
    const names = { x: randomUUID(), y: randomUUID(), z: randomUUID() };
    await record([['site.created', names.x], ['meter.created', names.y], ['site.updated', names.x], ['site.updated', names.z]]);
    const ids = await deliveryIds(all, names);
    const due = async (endpointId: string, now: Date, limit = 10) =>
      (await db.inContext(() => deliveries().due(accountId, endpointId, now, limit))).map(({ delivery, event }) => {
        expect([delivery.entityId, event.accountId, event.data]).toEqual([event.entityId, accountId, { type: event.type }]);
        return `${event.type}:${Object.keys(names).find((name) => names[name as keyof typeof names] === delivery.entityId)}#${delivery.attemptCount}`;
      });

    expect(await due(all, after(0))).toEqual(['site.created:x#0', 'meter.created:y#0', 'site.updated:x#0', 'site.updated:z#0']);
    expect(await due(all, after(0), 2)).toEqual(['site.created:x#0', 'meter.created:y#0']);
    expect(await due(all, after(-0.001))).toEqual([]);
    expect(await due(sitesOnly, after(0))).toEqual(['site.created:x#0']);

    await recordAttempts([attempt(ids['site.created:x']!, 'pending', 503, after(60)), attempt(ids['meter.created:y']!, 'delivered', 200, null)]);
    expect(await due(all, after(1))).toEqual(['site.updated:z#0']);
    expect(await due(all, after(60))).toEqual(['site.created:x#1', 'site.updated:x#0', 'site.updated:z#0']);
    // A delivery given up on (failed) no longer holds its entity back.
    await recordAttempts([attempt(ids['site.created:x']!, 'failed', 503, null, after(2))], after(2));
    expect(await due(all, after(2))).toEqual(['site.updated:x#0', 'site.updated:z#0']);

    const [full] = await db.inContext(() => deliveries().due(accountId, sitesOnly, after(0), 1));
    const [event] = await db.sql('select id, sequence from events where entity_id = $1 and type = $2', [names.x, 'site.created']);
    expect(full!.event).toMatchObject({ id: event!.id, sequence: event!.sequence, type: 'site.created', userId: null, siteIds: [], entityId: names.x, createdAt: new Date(T) });
  });

  it('recordAttempts appends each attempt and sets state, next attempt and delivery time', async () => {
    const target = await endpoint();
    const names = { x: randomUUID(), y: randomUUID() };
    await record([['site.created', names.x], ['site.created', names.y]]);
    const ids = await deliveryIds(target, names);
    await recordAttempts([attempt(ids['site.created:x']!, 'pending', 500, after(30)), attempt(ids['site.created:y']!, 'delivered', 204, null)]);
    await recordAttempts([attempt(ids['site.created:x']!, 'delivered', 200, null, after(31))], after(31));
    const rows = await db.sql('select id, state, attempts, next_attempt_at, delivered_at, updated_at from webhook_deliveries where endpoint_id = $1 order by event_sequence', [target]);
    expect(rows).toEqual([
      {
        id: ids['site.created:x'],
        state: 'delivered',
        attempts: [attempt('', 'pending', 500, null).attempt, attempt('', 'delivered', 200, null, after(31)).attempt],
        next_attempt_at: null,
        delivered_at: after(31),
        updated_at: after(31),
      },
      { id: ids['site.created:y'], state: 'delivered', attempts: [attempt('', 'delivered', 204, null).attempt], next_attempt_at: null, delivered_at: after(1), updated_at: after(1) },
    ]);
  });

  it('endpointsWithDueDeliveries names the endpoints with pending deliveries due at the instant, each with its account', async () => {
    const [target, other] = [await endpoint(), await endpoint()];
    const names = { x: randomUUID() };
    await record([['site.created', names.x]]);
    const dueAt = async (now: Date) =>
      (await db.inContext(() => deliveries().endpointsWithDueDeliveries(now)))
        .filter(({ endpointId }) => [target, other].includes(endpointId))
        .sort((a, b) => a.endpointId.localeCompare(b.endpointId));
    const keys = (...endpointIds: string[]) => endpointIds.sort().map((endpointId) => ({ accountId, endpointId }));
    expect(await dueAt(after(-1))).toEqual([]);
    expect(await dueAt(after(0))).toEqual(keys(target, other));
    await recordAttempts([attempt((await deliveryIds(target, names))['site.created:x']!, 'delivered', 200, null)]);
    expect(await dueAt(after(5))).toEqual(keys(other));
  });

  it('endpointsWithDueDeliveries leaves out endpoints that are disabled or held by a worker until the lease ends', async () => {
    const [held, disabled, free] = [await endpoint(), await endpoint(), await endpoint()];
    await record([['site.created', randomUUID()]]);
    await db.sql('update webhook_endpoints set enabled = false where id = $1', [disabled]);
    await db.inTransaction(() => deliveries().takeLease(accountId, held, randomUUID(), after(30), after(0)));
    const dueAt = async (now: Date) =>
      (await db.inContext(() => deliveries().endpointsWithDueDeliveries(now))).map((k) => k.endpointId).filter((id) => [held, disabled, free].includes(id)).sort();
    expect(await dueAt(after(10))).toEqual([free]);
    expect(await dueAt(after(31))).toEqual([held, free].sort());
  });

  it('due leaves out the deliveries of the round in flight, and still holds an entity behind its waiting retry', async () => {
    const target = await endpoint();
    const names = { x: randomUUID(), y: randomUUID() };
    await record([['site.created', names.x], ['site.updated', names.x], ['site.created', names.y]]);
    const ids = await deliveryIds(target, names);
    const due = async (inFlight: string[]) => (await db.inContext(() => deliveries().due(accountId, target, after(0), 10, inFlight))).map((d) => d.delivery.id);
    expect(await due([])).toEqual([ids['site.created:x'], ids['site.updated:x'], ids['site.created:y']]);
    expect(await due([ids['site.created:x']!, ids['site.created:y']!])).toEqual([ids['site.updated:x']]);
    // Its first delivery failed and waits for a retry: the second waits behind it.
    await recordAttempts([attempt(ids['site.created:x']!, 'pending', 500, after(60))], after(0));
    expect(await due([ids['site.created:y']!])).toEqual([]);
  });

  it('lists the deliveries of an endpoint of the account, newest event first, filtered by state', async () => {
    const target = await endpoint();
    const names = { a: randomUUID(), b: randomUUID(), c: randomUUID() };
    await record([['site.created', names.a], ['site.created', names.b], ['site.created', names.c]]);
    const ids = await deliveryIds(target, names);
    await recordAttempts([attempt(ids['site.created:b']!, 'delivered', 200, null)]);
    const list = async (account: string, filter: { state?: DeliveryState }, limit = 10, offset = 0) => {
      const page = await db.inContext(() => deliveries().listForEndpoint(account, target, filter, { limit, offset }));
      return { ids: page.items.map((d) => d.id), total: page.total };
    };
    const [a, b, c] = [ids['site.created:a']!, ids['site.created:b']!, ids['site.created:c']!];
    const cases: [string, Awaited<ReturnType<typeof list>>, Awaited<ReturnType<typeof list>>][] = [
      ['all', await list(accountId, {}), { ids: [c, b, a], total: 3 }],
      ['pending', await list(accountId, { state: 'pending' }), { ids: [c, a], total: 2 }],
      ['delivered', await list(accountId, { state: 'delivered' }), { ids: [b], total: 1 }],
      ['failed', await list(accountId, { state: 'failed' }), { ids: [], total: 0 }],
      ['a page', await list(accountId, {}, 1, 1), { ids: [b], total: 3 }],
      ['other account', await list(otherAccountId, {}), { ids: [], total: 0 }],
    ];
    for (const [name, actual, expected] of cases) expect(actual, name).toEqual(expected);
    expect(await db.inContext(() => deliveries().findById(accountId, b))).toMatchObject({ id: b, endpointId: target, eventType: 'site.created', entityId: names.b, state: 'delivered' });
    expect(await db.inContext(() => deliveries().findById(otherAccountId, b))).toBeNull();
  });

  it('gives the lease of an endpoint to one holder until it expires or is released', async () => {
    const target = await endpoint();
    const take = (token: string, untilSeconds: number, nowSeconds: number, endpointId = target) =>
      db.inTransaction(() => deliveries().takeLease(accountId, endpointId, token, after(untilSeconds), after(nowSeconds)));
    const release = (token: string) => db.inTransaction(() => deliveries().releaseLease(accountId, target, token));
    const holder = async () => (await db.sql('select account_id, token, until from webhook_leases where endpoint_id = $1', [target]))[0];
    const [one, two] = [randomUUID(), randomUUID()];
    const steps: [string, () => Promise<boolean>, boolean][] = [
      ['first taker', () => take(one, 30, 0), true],
      ['another while held', () => take(two, 30, 10), false],
      ['holder renews', () => take(one, 60, 10), true],
      ['another before the renewed end', () => take(two, 90, 59), false],
      ['another once expired', () => take(two, 90, 61), true],
      ['the old holder', () => take(one, 120, 62), false],
    ];
    for (const [name, step, expected] of steps) expect(await step(), name).toBe(expected);
    expect(await holder()).toEqual({ account_id: accountId, token: two, until: after(90) });
    await release(one);
    expect((await holder())?.token).toBe(two);
    await release(two);
    expect(await holder()).toBeUndefined();
    expect(await take(one, 30, 0, randomUUID())).toBe(false);

    const race = await Promise.all([randomUUID(), randomUUID(), randomUUID(), randomUUID()].map((token) => take(token, 300, 100)));
    expect(race.filter(Boolean)).toHaveLength(1);
  });

  it('renews a lease only for the token that holds it, never re-taking one another worker took', async () => {
    const target = await endpoint();
    const [one, two] = [randomUUID(), randomUUID()];
    const renew = (token: string, untilSeconds: number) => db.inTransaction(() => deliveries().renewLease(accountId, target, token, after(untilSeconds)));
    expect(await renew(one, 30)).toBe(false);
    expect(await db.inTransaction(() => deliveries().takeLease(accountId, target, one, after(30), after(0)))).toBe(true);
    expect(await renew(one, 60)).toBe(true);
    expect(await renew(two, 90)).toBe(false);
    // The first holder's lease ran out and another worker took the endpoint and released it.
    expect(await db.inTransaction(() => deliveries().takeLease(accountId, target, two, after(120), after(61)))).toBe(true);
    await db.inTransaction(() => deliveries().releaseLease(accountId, target, two));
    expect(await renew(one, 150)).toBe(false);
    expect(await db.sql('select token from webhook_leases where endpoint_id = $1', [target])).toEqual([]);
  });

  it("touches nothing of an endpoint when its lease, due deliveries or attempts are asked for with another account's id", async () => {
    const target = await endpoint();
    const names = { x: randomUUID() };
    await record([['site.created', names.x]]);
    const ids = await deliveryIds(target, names);
    const rows = () => db.sql('select state, attempts, next_attempt_at, updated_at from webhook_deliveries where endpoint_id = $1', [target]);
    const lease = () => db.sql('select account_id, token, until from webhook_leases where endpoint_id = $1', [target]);
    const before = await rows();
    expect(before).toHaveLength(1);

    expect(await db.inContext(() => deliveries().due(otherAccountId, target, after(0), 10))).toEqual([]);
    await recordAttempts([attempt(ids['site.created:x']!, 'delivered', 200, null)], after(1), otherAccountId);
    expect(await rows()).toEqual(before);
    expect(await db.inTransaction(() => deliveries().takeLease(otherAccountId, target, randomUUID(), after(30), after(0)))).toBe(false);
    expect(await lease()).toEqual([]);

    const held = randomUUID();
    expect(await db.inTransaction(() => deliveries().takeLease(accountId, target, held, after(30), after(0)))).toBe(true);
    // Neither an expired lease taken over nor the holder's token released, through another account.
    expect(await db.inTransaction(() => deliveries().takeLease(otherAccountId, target, randomUUID(), after(90), after(60)))).toBe(false);
    await db.inTransaction(() => deliveries().releaseLease(otherAccountId, target, held));
    expect(await lease()).toEqual([{ account_id: accountId, token: held, until: after(30) }]);
  });

  it('reads an endpoint afresh for the worker, within its account only, and removing one takes its deliveries and lease along', async () => {
    const target = await endpoint();
    const names = { x: randomUUID() };
    await record([['site.created', names.x]]);
    await db.inTransaction(() => deliveries().takeLease(accountId, target, randomUUID(), after(30), after(0)));
    expect((await db.inContext(() => endpoints().findFresh(accountId, target)))?.accountId).toBe(accountId);
    expect(await db.inContext(() => endpoints().findFresh(otherAccountId, target))).toBeNull();
    expect(await db.inContext(() => endpoints().findById(otherAccountId, target))).toBeNull();
    // Fresh: a change committed since the unit of work loaded the endpoint shows at once.
    const seen = await db.inContext(async () => {
      await endpoints().findById(accountId, target);
      await db.sql('update webhook_endpoints set enabled = false where account_id = $1 and id = $2', [accountId, target]);
      return [(await endpoints().findById(accountId, target))?.enabled, (await endpoints().findFresh(accountId, target))?.enabled];
    });
    expect(seen).toEqual([true, false]);

    await db.inTransaction(async () => endpoints().remove((await endpoints().findById(accountId, target))!));
    expect(await db.inContext(() => endpoints().findFresh(accountId, target))).toBeNull();
    expect(await db.sql('select id from webhook_deliveries where endpoint_id = $1 union all select endpoint_id from webhook_leases where endpoint_id = $1', [target])).toEqual([]);
    expect(await db.sql('select type from events where entity_id = $1', [names.x])).toEqual([{ type: 'site.created' }]);
  });
});
