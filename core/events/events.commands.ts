import { z } from 'zod';
import { EVENT_TYPES } from '../domain/events/event.js';
import { endAfter, utcInstant } from '../field-formats.js';
import { pageQuery } from '../pagination.js';

export const listEventsQuery = pageQuery
  .extend({ type: z.enum(EVENT_TYPES).optional(), startDateTime: utcInstant.optional(), endDateTime: utcInstant.optional() })
  .strict()
  .superRefine((query, ctx) => {
    if (query.startDateTime) endAfter('startDateTime', 'endDateTime')(query as { startDateTime: string; endDateTime?: string }, ctx);
  });

/** The envelope partners parse, in webhooks and in `GET /v1/events`. */
export const eventView = z.object({
  id: z.uuid(),
  type: z.enum(EVENT_TYPES),
  userId: z.uuid().nullable(),
  timestamp: z.string().meta({ format: 'date-time' }),
  accountId: z.uuid(),
  siteIds: z.array(z.uuid()),
  data: z.record(z.string(), z.unknown()),
}).meta({ id: 'Event' });
export type EventView = z.output<typeof eventView>;
