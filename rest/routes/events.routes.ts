import { eventView, listEventsQuery } from '../../core/events/events.commands.js';
import type { Services } from '../../core/services.js';
import {
  createWebhookEndpointCommand,
  deliveryView,
  listDeliveriesQuery,
  listWebhookEndpointsQuery,
  updateWebhookEndpointCommand,
  webhookEndpointView,
  webhookEndpointWithSecretView,
} from '../../core/webhooks/webhooks.commands.js';
import { resourceRoutes } from '../resource-routes.js';
import { listOf, type RouteSpec } from '../route.js';

/** The event log and webhook endpoints. */
export function eventRoutes(s: Services): RouteSpec[] {
  const endpoint = '/v1/webhook-endpoints/{id}';
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
    ...resourceRoutes({
      path: '/v1/webhook-endpoints',
      tag: 'Webhooks',
      singular: 'WebhookEndpoint',
      plural: 'WebhookEndpoints',
      view: webhookEndpointView,
      createdView: webhookEndpointWithSecretView,
      service: s.webhookEndpoints,
      create: createWebhookEndpointCommand,
      list: listWebhookEndpointsQuery,
      update: updateWebhookEndpointCommand,
    }),
    {
      method: 'delete',
      path: endpoint,
      operationId: 'deleteWebhookEndpoint',
      summary: 'Delete a webhook endpoint and its delivery log',
      description: 'The endpoint receives no further events; its deliveries, sent or pending, are removed with it.',
      tag: 'Webhooks',
      response: { status: 204, description: 'Deleted' },
      errors: [404],
      handle: async ({ actor, params }) => {
        await s.webhookEndpoints.delete(actor, params.id!);
        return { status: 204, body: undefined };
      },
    },
    {
      method: 'post',
      path: `${endpoint}/rotate-secret`,
      operationId: 'rotateWebhookEndpointSecret',
      summary: 'A new signing secret (shown once); the old one keeps signing for 24 hours',
      description:
        'Answers the endpoint with its new secret, which no read shows again. For 24 hours deliveries carry a second signature made with the old secret, ' +
        'so the receiver can switch without losing events.',
      tag: 'Webhooks',
      response: { status: 200, description: 'The endpoint with its new secret', schema: webhookEndpointWithSecretView },
      errors: [404],
      handle: async ({ actor, params }) => ({ status: 200, body: await s.webhookEndpoints.rotateSecret(actor, params.id!) }),
    },
    {
      method: 'get',
      path: `${endpoint}/deliveries`,
      operationId: 'listWebhookDeliveries',
      summary: 'The delivery log of an endpoint, newest first, with every attempt',
      description:
        'A page of the deliveries to one endpoint (`limit`, `offset`, optionally only those in `state`), each with its attempts: time, HTTP status, duration and error. ' +
        '404 when the endpoint is not in the account.',
      tag: 'Webhooks',
      query: listDeliveriesQuery,
      response: { status: 200, description: 'A page of deliveries', schema: listOf(deliveryView) },
      errors: [404],
      handle: async ({ actor, params, query }) => ({ status: 200, body: await s.webhookDeliveries.listForEndpoint(actor, params.id!, query) }),
    },
    {
      method: 'get',
      path: '/v1/webhook-deliveries/{id}',
      operationId: 'getWebhookDelivery',
      summary: 'Read a delivery with its attempts',
      description: 'One delivery of an event to an endpoint: its state, every attempt so far, and when the next one is due.',
      tag: 'Webhooks',
      response: { status: 200, description: 'The delivery', schema: deliveryView },
      errors: [404],
      handle: async ({ actor, params }) => ({ status: 200, body: await s.webhookDeliveries.get(actor, params.id!) }),
    },
    {
      method: 'post',
      path: '/v1/webhook-deliveries/{id}/retry',
      operationId: 'retryWebhookDelivery',
      summary: 'Send a delivery again now (a replay when it was delivered)',
      description: 'Queues the delivery for an attempt right away, also one that was delivered or has failed for good; answers it pending (202).',
      tag: 'Webhooks',
      response: { status: 202, description: 'The delivery, pending again', schema: deliveryView },
      errors: [404],
      handle: async ({ actor, params }) => ({ status: 202, body: await s.webhookDeliveries.retry(actor, params.id!) }),
    },
  ];
}
