import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Resolver, Root } from 'type-graphql';
import type { WebhookEndpointView } from '../../core/webhooks/webhooks.commands.js';
import { toPlain, type GraphQLContext } from '../context.js';
import { crudResolver } from '../crud-resolver.js';
import {
  WebhookDeliveryListArgs,
  WebhookDeliveryListType,
  WebhookDeliveryType,
  WebhookEndpointInput,
  WebhookEndpointListArgs,
  WebhookEndpointListType,
  WebhookEndpointType,
} from '../types/webhook.types.js';

@Resolver(() => WebhookEndpointType)
export class WebhookEndpointResolver extends crudResolver({
  name: 'WebhookEndpoint',
  plural: 'WebhookEndpoints',
  type: WebhookEndpointType,
  list: WebhookEndpointListType,
  args: WebhookEndpointListArgs,
  input: WebhookEndpointInput,
  deletable: true,
  service: ({ services }) => services.webhookEndpoints,
}) {
  @Mutation(() => WebhookEndpointType, { description: 'A new secret (in the answer only); the old one signs along for 24 hours' })
  rotateWebhookEndpointSecret(@Arg('id', () => ID) id: string, @Ctx() { actor, services }: GraphQLContext) {
    return services.webhookEndpoints.rotateSecret(actor, id);
  }

  @Mutation(() => WebhookDeliveryType, { description: 'Sends a delivery again now' })
  retryWebhookDelivery(@Arg('id', () => ID) id: string, @Ctx() { actor, services }: GraphQLContext) {
    return services.webhookDeliveries.retry(actor, id);
  }

  @FieldResolver(() => WebhookDeliveryListType, { description: 'The delivery log, newest first' })
  deliveries(@Root() endpoint: WebhookEndpointView, @Args(() => WebhookDeliveryListArgs) args: WebhookDeliveryListArgs, @Ctx() { actor, services }: GraphQLContext) {
    return services.webhookDeliveries.listForEndpoint(actor, endpoint.id, toPlain(args));
  }
}
