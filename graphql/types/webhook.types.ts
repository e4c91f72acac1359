import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { WebhookDeliveryStateEnum } from '../enums.js';
import { DateTimeScalar } from '../scalars.js';
import { ListArgs } from './common.types.js';

@ObjectType('WebhookEndpoint')
export class WebhookEndpointType {
  @Field(() => ID) id!: string;
  @Field(() => String) url!: string;
  // Strings, not an enum: event types are dotted (see Event.type), and * means all.
  @Field(() => [String], { description: 'Event types, e.g. site.created, or * for all' }) events!: string[];
  @Field(() => GraphQLJSONObject, { description: 'Extra headers sent with every delivery' }) headers!: Record<string, string>;
  @Field(() => Boolean) enabled!: boolean;
  @Field(() => String, { nullable: true, description: 'The signing secret: only in the answers of createWebhookEndpoint and rotateWebhookEndpointSecret' })
  secret?: string | null;
  @Field(() => DateTimeScalar) createdAt!: string;
  @Field(() => DateTimeScalar) updatedAt!: string;
}

@ObjectType('WebhookEndpointList')
export class WebhookEndpointListType {
  @Field(() => [WebhookEndpointType]) data!: WebhookEndpointType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class WebhookEndpointListArgs extends ListArgs {}

@InputType('WebhookEndpointInput')
export class WebhookEndpointInput {
  @Field(() => String, { nullable: true }) url?: string | null;
  @Field(() => [String], { nullable: true }) events?: string[] | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) headers?: Record<string, string> | null;
  @Field(() => Boolean, { nullable: true }) enabled?: boolean | null;
}

@ObjectType('WebhookDeliveryAttempt')
export class WebhookDeliveryAttemptType {
  @Field(() => DateTimeScalar) attemptedAt!: string;
  @Field(() => Int, { nullable: true }) statusCode!: number | null;
  @Field(() => Int) durationMs!: number;
  @Field(() => String, { nullable: true }) error!: string | null;
}

@ObjectType('WebhookDelivery')
export class WebhookDeliveryType {
  @Field(() => ID) id!: string;
  @Field(() => ID) endpointId!: string;
  @Field(() => ID) eventId!: string;
  @Field(() => String) eventType!: string;
  @Field(() => WebhookDeliveryStateEnum) state!: string;
  @Field(() => [WebhookDeliveryAttemptType]) attempts!: WebhookDeliveryAttemptType[];
  @Field(() => DateTimeScalar, { nullable: true }) nextAttemptAt!: string | null;
  @Field(() => DateTimeScalar, { nullable: true }) deliveredAt!: string | null;
  @Field(() => DateTimeScalar) createdAt!: string;
}

@ObjectType('WebhookDeliveryList')
export class WebhookDeliveryListType {
  @Field(() => [WebhookDeliveryType]) data!: WebhookDeliveryType[];
  @Field(() => Int) total!: number;
}

@ArgsType()
export class WebhookDeliveryListArgs extends ListArgs {
  @Field(() => WebhookDeliveryStateEnum, { nullable: true }) state?: string;
}
