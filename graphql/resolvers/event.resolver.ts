import { Resolver } from 'type-graphql';
import { crudResolver } from '../crud-resolver.js';
import { EventListArgs, EventListType, EventType } from '../types/event.types.js';

@Resolver(() => EventType)
export class EventResolver extends crudResolver({
  name: 'Event',
  plural: 'Events',
  type: EventType,
  list: EventListType,
  args: EventListArgs,
  service: ({ services }) => services.events,
}) {}
