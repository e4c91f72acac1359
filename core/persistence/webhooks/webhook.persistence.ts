import { defineEntity, p } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainEvent, type EventType } from '../../domain/events/event.js';
import { WebhookDelivery, WebhookEndpoint, type DeliveryAttempt, type DeliveryState } from '../../domain/webhooks/webhook.js';
import type { Page, PageQuery } from '../../pagination.js';
import type { AttemptResult, DueDelivery, EndpointKey, WebhookDeliveryRepository, WebhookEndpointRepository } from '../../webhooks/webhooks.repository.js';
import { AccountScopedRepository } from '../account-scoped.repository.js';
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
    { name: 'webhook_deliveries_pending_by_entity', properties: ['endpointId', 'entityId', 'eventSequence'], where: "state = 'pending'" },
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
    const rows = await this.em.execute<{ account_id: string; endpoint_id: string }[]>(
      `select distinct account_id, endpoint_id from webhook_deliveries where state = 'pending' and next_attempt_at <= ?`,
      [now],
    );
    return rows.map((row) => ({ accountId: row.account_id, endpointId: row.endpoint_id }));
  }

  async due(accountId: string, endpointId: string, now: Date, limit: number): Promise<DueDelivery[]> {
    const rows = await this.em.execute<DueRow[]>(
      `select d.id, d.entity_id, jsonb_array_length(d.attempts) as attempt_count,
              e.id as event_id, e.account_id, e.sequence, e.type, e.user_id, e.site_ids, e.data, e.created_at
         from webhook_deliveries d join events e on e.id = d.event_id and e.account_id = d.account_id
         -- One index lookup per candidate, whatever the statistics say after a burst (an anti-join
         -- planned on stale statistics compared every pending delivery with every other).
         left join lateral (select 1 as waiting from webhook_deliveries held
                             where held.account_id = d.account_id and held.endpoint_id = d.endpoint_id and held.entity_id = d.entity_id and held.state = 'pending'
                               and held.event_sequence < d.event_sequence and held.next_attempt_at > ?
                             limit 1) earlier on true
        where d.account_id = ? and d.endpoint_id = ? and d.state = 'pending' and d.next_attempt_at <= ? and earlier.waiting is null
        order by d.event_sequence
        limit ?`,
      [now, accountId, endpointId, now, limit],
    );
    return rows.map((row) => ({
      delivery: { id: row.id, entityId: row.entity_id, attemptCount: Number(row.attempt_count) },
      event: Object.assign(new DomainEvent(), {
        id: row.event_id,
        accountId: row.account_id,
        sequence: row.sequence,
        type: row.type,
        userId: row.user_id,
        siteIds: row.site_ids,
        entityId: row.entity_id,
        data: row.data,
        createdAt: new Date(row.created_at),
      }),
    }));
  }

  async recordAttempts(accountId: string, results: readonly AttemptResult[], now: Date): Promise<void> {
    if (results.length === 0) return;
    await this.em.execute(
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

  async releaseLease(accountId: string, endpointId: string, token: string): Promise<void> {
    await this.em.execute('delete from webhook_leases where account_id = ? and endpoint_id = ? and token = ?', [accountId, endpointId, token]);
  }
}
