import { z } from 'zod';
import { EVENT_TYPES } from '../domain/events/event.js';
import { DELIVERY_STATES } from '../domain/webhooks/webhook.js';
import { readOnlyEcho, timestamps } from '../field-formats.js';
import { pageQuery } from '../pagination.js';

/** Headers the delivery itself sets; an endpoint cannot override them. */
const RESERVED_HEADER = /^(webhook-.*|content-type|content-length|host|user-agent|connection|transfer-encoding)$/i;

const headers = z
  .record(
    z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'Expected an HTTP header name.'),
    z.string().max(1000).regex(/^[^\r\n]*$/, 'Header values are one line.'),
  )
  .superRefine((value, ctx) => {
    const keys = Object.keys(value);
    if (keys.length > 20) ctx.addIssue({ code: 'custom', message: 'At most 20 headers.', params: { code: 'too_many_headers' } });
    for (const key of keys.filter((name) => RESERVED_HEADER.test(name))) {
      ctx.addIssue({ code: 'custom', path: [key], message: `"${key}" is set by every delivery and cannot be replaced.`, params: { code: 'reserved_header' } });
    }
  });

const endpointFields = {
  url: z.url({ protocol: /^https?$/, message: 'Expected an http(s) URL.' }).max(2000),
  events: z
    .array(z.enum([...EVENT_TYPES, '*']))
    .min(1)
    .refine((events) => new Set(events).size === events.length, { message: 'List each event type once.', params: { code: 'duplicate_event_type' } }),
  headers,
  enabled: z.boolean(),
};

export const createWebhookEndpointCommand = z
  .object({ ...endpointFields, headers: headers.default({}), enabled: endpointFields.enabled.default(true) })
  .strict()
  .meta({ id: 'CreateWebhookEndpointInput' });
export const updateWebhookEndpointCommand = z.object({ ...readOnlyEcho, ...endpointFields }).partial().strict().meta({ id: 'UpdateWebhookEndpointInput' });
export const listWebhookEndpointsQuery = pageQuery;

export const webhookEndpointView = z.object({
  id: z.uuid(),
  url: z.string(),
  events: z.array(z.string()),
  headers: z.record(z.string(), z.string()),
  enabled: z.boolean(),
  ...timestamps,
}).meta({ id: 'WebhookEndpoint' });
export type WebhookEndpointView = z.output<typeof webhookEndpointView>;
/** Creation and rotation: the only answers that carry the secret. */
export const webhookEndpointWithSecretView = webhookEndpointView.extend({ secret: z.string() }).meta({ id: 'WebhookEndpointWithSecret' });
export type WebhookEndpointWithSecretView = z.output<typeof webhookEndpointWithSecretView>;

export const listDeliveriesQuery = pageQuery.extend({ state: z.enum(DELIVERY_STATES).optional() }).strict();
export const deliveryView = z.object({
  id: z.uuid(),
  endpointId: z.uuid(),
  eventId: z.uuid(),
  eventType: z.string(),
  state: z.enum(DELIVERY_STATES),
  attempts: z.array(z.object({ attemptedAt: z.string().meta({ format: 'date-time' }), statusCode: z.number().int().nullable(), durationMs: z.number().int(), error: z.string().nullable() })),
  nextAttemptAt: z.string().nullable().meta({ format: 'date-time' }),
  deliveredAt: z.string().nullable().meta({ format: 'date-time' }),
  createdAt: z.string().meta({ format: 'date-time' }),
}).meta({ id: 'WebhookDelivery' });
export type DeliveryView = z.output<typeof deliveryView>;
