import type { Actor } from '../auth/actor.js';
import type { DomainEvent, EventType } from '../domain/events/event.js';
import type { ResourceRepository } from '../resource.repository.js';
import { listPage, loadOwned, type ListResult, type ResourceService } from '../resource.service.js';
import { listEventsQuery, type EventView } from './events.commands.js';

export interface EventFilter {
  type?: EventType;
  /** Events written in [startDateTime, endDateTime). */
  startDateTime?: string;
  endDateTime?: string;
}

/** Ordered by sequence: the order the changes committed in. */
export type EventRepository = ResourceRepository<DomainEvent, EventFilter>;

export function presentEvent(event: DomainEvent): EventView {
  const { id, type, userId, accountId, siteIds, data } = event;
  return { id, type, userId, timestamp: event.createdAt.toISOString(), accountId, siteIds, data };
}

/** The event log partners read to catch up after an outage. */
export class EventsService implements ResourceService<EventView> {
  constructor(private readonly events: EventRepository) {}

  async get(actor: Actor, id: string): Promise<EventView> {
    return presentEvent(await loadOwned(this.events, actor, 'event', id));
  }

  list(actor: Actor, query: unknown): Promise<ListResult<EventView>> {
    return listPage(this.events, actor, listEventsQuery, query, (items) => items.map(presentEvent));
  }
}
