import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, ID, Int, ObjectType } from 'type-graphql';
import { DateTimeScalar } from '../scalars.js';
import { ListArgs } from './common.types.js';

@ObjectType('Event', { description: 'The envelope webhooks deliver' })
export class EventType {
  @Field(() => ID) id!: string;
  // Not an enum: event types are dotted (site.created), which no GraphQL name can be, and partners
  // match them as webhooks deliver them; one spelling in both places beats a renamed enum.
  @Field(() => String) type!: string;
  @Field(() => ID, { nullable: true, description: 'Null for events of the worker' }) userId!: string | null;
  @Field(() => DateTimeScalar) timestamp!: string;
  @Field(() => ID) accountId!: string;
  @Field(() => [ID]) siteIds!: string[];
  @Field(() => GraphQLJSONObject, { description: 'The entity as the REST API shows it' }) data!: Record<string, unknown>;
}

@ObjectType('EventList')
export class EventListType {
  @Field(() => [EventType]) data!: EventType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class EventListArgs extends ListArgs {
  @Field(() => String, { nullable: true, description: 'An event type, e.g. site.created' }) type?: string;
  @Field(() => DateTimeScalar, { nullable: true, description: 'Written at or after' }) startDateTime?: string;
  @Field(() => DateTimeScalar, { nullable: true, description: 'Written before' }) endDateTime?: string;
}
