import { defineEntity, p } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventType } from '../../domain/events/event.js';
import { WebhookDelivery, WebhookEndpoint, type DeliveryAttempt, type DeliveryState } from '../../domain/webhooks/webhook.js';
import type { Page, PageQuery } from '../../pagination.js';
import type { AttemptResult, DueDelivery, EndpointKey, WebhookDeliveryRepository, WebhookEndpointRepository } from '../../webhooks/webhooks.repository.js';
import { AccountScopedRepository } from '../account-scoped.repository.js';
import { boundQuery } from '../bound-query.js';
import { EventEntity } from '../events/event.persistence.js';
import { accountKey, tenantForeignKey } from '../tenant-keys.js';

export const WebhookEndpointEntity = defineEntity({
  class: WebhookEndpoint,
  tableName: 'webhook_endpoints',
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    url: p.string().length(2000),
    events: p.json<string[]>(),
    headers: p.json<Record<string, string>>(),
    enabled: p.boolean(),
    secret: p.text(),
    previousSecret: p.text().nullable(),
    previousSecretExpiresAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

/** The delivery lease of an endpoint (one sender at a time); not part of the domain object. */
export class WebhookLease {
  accountId!: string;
  endpointId!: string;
  token!: string;
  until!: Date;
}

export const WebhookLeaseEntity = defineEntity({
  class: WebhookLease,
  tableName: 'webhook_leases',
  properties: {
    accountId: accountKey,
    endpointId: p.uuid().fieldName('endpoint_id').primary(),
    endpoint: tenantForeignKey(() => WebhookEndpointEntity, 'endpoint_id', 'cascade'),
    token: p.uuid(),
    until: p.datetime(3),
  },
});

export const WebhookDeliveryEntity = defineEntity({
  class: WebhookDelivery,
  tableName: 'webhook_deliveries',
  indexes: [
    { properties: ['accountId', 'endpointId', 'createdAt'] },
    { name: 'webhook_deliveries_pending_by_endpoint_due', properties: ['endpointId', 'nextAttemptAt'], where: "state = 'pending'" },
    { name: 'webhook_deliveries_pending_due', properties: ['nextAttemptAt'], where: "state = 'pending'" },
    { name: 'webhook_deliveries_pending_in_order', properties: ['endpointId', 'eventSequence'], where: "state = 'pending'" },
  ],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    endpointId: p.uuid().fieldName('endpoint_id'),
    endpoint: tenantForeignKey(() => WebhookEndpointEntity, 'endpoint_id', 'cascade'),
    eventId: p.uuid().fieldName('event_id'),
    event: tenantForeignKey(() => EventEntity, 'event_id'),
    eventType: p.string().length(40),
    entityId: p.uuid(),
    eventSequence: p.bigint('string'),
    state: p.string().length(16),
    attempts: p.json<DeliveryAttempt[]>(),
    nextAttemptAt: p.datetime(3).nullable(),
    deliveredAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export class MikroWebhookEndpointRepository extends AccountScopedRepository<WebhookEndpoint> implements WebhookEndpointRepository {
  constructor(em: EntityManager) {
    super(em, WebhookEndpointEntity);
  }

  findFresh(accountId: string, id: string): Promise<WebhookEndpoint | null> {
    // A fork of its own: not the entity the unit of work may already hold, but the row as it is now.
    return this.em.fork().findOne(WebhookEndpointEntity, { accountId, id });
  }
}

interface DueRow {
  id: string;
  entity_id: string;
  attempt_count: number;
  event_id: string;
  account_id: string;
  sequence: string;
  type: EventType;
  user_id: string | null;
  site_ids: string[];
  data: Record<string, unknown>;
  created_at: Date;
}

export class MikroWebhookDeliveryRepository implements WebhookDeliveryRepository {
  constructor(private readonly em: EntityManager) {}

  findById(accountId: string, id: string): Promise<WebhookDelivery | null> {
    return this.em.findOne(WebhookDeliveryEntity, { accountId, id });
  }

  async listForEndpoint(accountId: string, endpointId: string, filter: { state?: DeliveryState }, page: PageQuery): Promise<Page<WebhookDelivery>> {
    const [items, total] = await this.em.findAndCount(
      WebhookDeliveryEntity,
      { accountId, endpointId, ...(filter.state ? { state: filter.state } : {}) },
      { orderBy: { eventSequence: 'desc', createdAt: 'desc' }, limit: page.limit, offset: page.offset },
    );
    return { items, total };
  }

  async endpointsWithDueDeliveries(now: Date): Promise<EndpointKey[]> {
    // Without the endpoints a worker holds: a job for one would only find its lease taken.
    const rows = await boundQuery<{ account_id: string; endpoint_id: string }>(
      this.em,
      `select k.account_id, k.endpoint_id
         from (select distinct account_id, endpoint_id from webhook_deliveries where state = 'pending' and next_attempt_at <= ?) k
         join webhook_endpoints e on e.account_id = k.account_id and e.id = k.endpoint_id and e.enabled
        where not exists (select 1 from webhook_leases l where l.account_id = k.account_id and l.endpoint_id = k.endpoint_id and l.until >= ?)`,
      [now, now],
    );
    return rows.map((row) => ({ accountId: row.account_id, endpointId: row.endpoint_id }));
  }

  async due(accountId: string, endpointId: string, now: Date, limit: number, inFlight: readonly string[] = []): Promise<DueDelivery[]> {
    const rows = await boundQuery<DueRow>(
      this.em,
      // The deliveries waiting for a retry are read first, through their own index; the due ones, in
      // event order, pass unless one of those is an earlier delivery of their entity, which is only
      // looked for when their entity has one at all (a hashed lookup). No step compares a candidate
      // with the other pending deliveries, whatever the statistics say after a burst.
      `with waiting as materialized (
         select account_id, entity_id, event_sequence from webhook_deliveries
          where account_id = ? and endpoint_id = ? and state = 'pending' and next_attempt_at > ?
       )
       select d.id, d.entity_id, jsonb_array_length(d.attempts) as attempt_count,
              e.id as event_id, e.account_id, e.sequence, e.type, e.user_id, e.site_ids, e.data, e.created_at
         from webhook_deliveries d join events e on e.id = d.event_id and e.account_id = d.account_id
        where d.account_id = ? and d.endpoint_id = ? and d.state = 'pending' and d.next_attempt_at <= ? and d.id <> all(?::uuid[])
          and (d.entity_id not in (select entity_id from waiting)
               or not exists (select 1 from waiting w where w.account_id = d.account_id and w.entity_id = d.entity_id and w.event_sequence < d.event_sequence))
        order by d.event_sequence
        limit ?`,
      [accountId, endpointId, now, accountId, endpointId, now, inFlight, limit],
    );
    // Plain events: the entity class carries the ORM's property accessors, which cost more than the rest of the mapping.
    return rows.map((row) => ({
      delivery: { id: row.id, entityId: row.entity_id, attemptCount: Number(row.attempt_count) },
      event: {
        id: row.event_id,
        accountId: row.account_id,
        sequence: row.sequence,
        type: row.type,
        userId: row.user_id,
        siteIds: row.site_ids,
        entityId: row.entity_id,
        data: row.data,
        createdAt: new Date(row.created_at),
      },
    }));
  }

  async recordAttempts(accountId: string, results: readonly AttemptResult[], now: Date): Promise<void> {
    if (results.length === 0) return;
    await boundQuery(
      this.em,
      `update webhook_deliveries d
          set attempts = d.attempts || jsonb_build_array(r.value->'attempt'),
              state = r.value->>'state',
              next_attempt_at = (r.value->>'nextAttemptAt')::timestamptz,
              delivered_at = case when r.value->>'state' = 'delivered' then ?::timestamptz else d.delivered_at end,
              updated_at = ?
         from jsonb_array_elements(?::jsonb) as r(value)
        where d.account_id = ? and d.id = (r.value->>'deliveryId')::uuid`,
      [now, now, JSON.stringify(results), accountId],
    );
  }

  async takeLease(accountId: string, endpointId: string, token: string, until: Date, now: Date): Promise<boolean> {
    const rows = await this.em.execute<{ endpoint_id: string }[]>(
      `insert into webhook_leases (account_id, endpoint_id, token, until)
       select account_id, id, ?, ? from webhook_endpoints where account_id = ? and id = ?
       on conflict (account_id, endpoint_id) do update set token = excluded.token, until = excluded.until
        where webhook_leases.token = excluded.token or webhook_leases.until < ?
       returning endpoint_id`,
      [token, until, accountId, endpointId, now],
    );
    return rows.length > 0;
  }

  async renewLease(accountId: string, endpointId: string, token: string, until: Date): Promise<boolean> {
    const rows = await boundQuery(this.em, 'update webhook_leases set until = ? where account_id = ? and endpoint_id = ? and token = ? returning endpoint_id', [
      until,
      accountId,
      endpointId,
      token,
    ]);
    return rows.length > 0;
  }

  async releaseLease(accountId: string, endpointId: string, token: string): Promise<void> {
    await this.em.execute('delete from webhook_leases where account_id = ? and endpoint_id = ? and token = ?', [accountId, endpointId, token]);
  }
}
