import { eventView, listEventsQuery } from '../../core/events/events.commands.js';
import type { Services } from '../../core/services.js';
import { resourceRoutes } from '../resource-routes.js';
import type { RouteSpec } from '../route.js';

/** The event log and webhook endpoints (design.md §8). */
export function eventRoutes(s: Services): RouteSpec[] {
  return [
    ...resourceRoutes({
      path: '/v1/events',
      tag: 'Events',
      singular: 'Event',
      plural: 'Events',
      view: eventView,
      service: s.events,
      list: listEventsQuery,
    }),
  ];
}
