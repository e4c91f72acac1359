import { GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, ID, Int, ObjectType } from 'type-graphql';
import { ListArgs } from './common.types.js';

@ObjectType('Event', { description: 'The envelope webhooks deliver' })
export class EventType {
  @Field(() => ID) id!: string;
  @Field(() => String) type!: string;
  @Field(() => ID, { nullable: true, description: 'Null for events of the worker' }) userId!: string | null;
  @Field(() => String) timestamp!: string;
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
  @Field(() => String, { nullable: true }) type?: string;
  @Field(() => String, { nullable: true, description: 'Written at or after (UTC)' }) startDateTime?: string;
  @Field(() => String, { nullable: true, description: 'Written before (UTC)' }) endDateTime?: string;
}
