import { defineEntity, p } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainEvent } from '../../domain/events/event.js';
import type { EventFilter, EventRepository } from '../../events/events.service.js';
import type { EventOutbox, NewEvent } from '../../events/outbox.js';
import type { Clock } from '../../clock.js';
import type { Page, PageQuery } from '../../pagination.js';
import { AccountScopedRepository } from '../account-scoped.repository.js';
import { boundQuery } from '../bound-query.js';
import { accountKey } from '../tenant-keys.js';

export const EventEntity = defineEntity({
  class: DomainEvent,
  tableName: 'events',
  uniques: [{ properties: ['accountId', 'sequence'] }],
  indexes: [{ properties: ['accountId', 'type', 'sequence'] }, { properties: ['accountId', 'createdAt'] }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    sequence: p.bigint('string').autoincrement(),
    type: p.string().length(40),
    userId: p.uuid().nullable(),
    siteIds: p.json<string[]>(),
    entityId: p.uuid(),
    data: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(3),
  },
});

export class MikroEventRepository extends AccountScopedRepository<DomainEvent, EventFilter> implements EventRepository {
  constructor(em: EntityManager) {
    super(em, EventEntity);
  }

  override async list(accountId: string, filter: EventFilter, page: PageQuery): Promise<Page<DomainEvent>> {
    const createdAt = { ...(filter.startDateTime ? { $gte: new Date(filter.startDateTime) } : {}), ...(filter.endDateTime ? { $lt: new Date(filter.endDateTime) } : {}) };
    const where = { accountId, ...(filter.type ? { type: filter.type } : {}), ...(Object.keys(createdAt).length > 0 ? { createdAt } : {}) };
    const [items, total] = await this.em.findAndCount(EventEntity, where, { orderBy: { sequence: 'asc' }, limit: page.limit, offset: page.offset });
    return { items, total };
  }
}

/** Writes events with one statement per call, in the transaction of the EntityManager in context. */
export class MikroEventOutbox implements EventOutbox {
  constructor(
    private readonly em: EntityManager,
    private readonly clock: Clock,
  ) {}

  async record(events: readonly NewEvent[]): Promise<void> {
    if (events.length === 0) return;
    const now = this.clock.now();
    const rows = events.map((event) => ({
      account_id: event.accountId,
      type: event.type,
      user_id: event.userId,
      site_ids: event.siteIds,
      entity_id: event.entityId,
      data: event.data,
    }));
    // One statement: the events, and a pending delivery for every enabled endpoint that wants them.
    // The events' JSON goes as a parameter: a bill run's batch of invoices is hundreds of kilobytes,
    // which em.execute would escape into the statement's text and PostgreSQL scan as a literal. It
    // is parsed once, as jsonb: a json value is text, which each field read and cast parses again.
    await boundQuery(
      this.em,
      `with written as (
         insert into events (id, account_id, type, user_id, site_ids, entity_id, data, created_at)
         select gen_random_uuid(), (r.value->>'account_id')::uuid, r.value->>'type', (r.value->>'user_id')::uuid,
                r.value->'site_ids', (r.value->>'entity_id')::uuid, r.value->'data', ?::timestamptz
           from jsonb_array_elements(?::jsonb) with ordinality as r(value, n)
          order by r.n
         returning id, account_id, type, entity_id, sequence
       )
       insert into webhook_deliveries (id, account_id, endpoint_id, event_id, event_type, entity_id, event_sequence, state, attempts, next_attempt_at, created_at, updated_at)
       select gen_random_uuid(), w.account_id, endpoint.id, w.id, w.type, w.entity_id, w.sequence, 'pending', '[]'::jsonb, ?::timestamptz, ?::timestamptz, ?::timestamptz
         from written w
         join webhook_endpoints endpoint on endpoint.account_id = w.account_id and endpoint.enabled
          and (endpoint.events @> jsonb_build_array(w.type) or endpoint.events @> '["*"]'::jsonb)`,
      [now, JSON.stringify(rows), now, now, now],
    );
  }
}
