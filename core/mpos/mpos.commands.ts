import { z } from 'zod';
import { timestamps } from '../field-formats.js';
import { pageQuery } from '../pagination.js';

export const createMpoCommand = z
  .object({
    channel: z.string().trim().min(1).max(100),
    provider: z.string().trim().min(1).max(100),
    name: z.string().trim().min(1).max(200),
  })
  .strict()
  .meta({ id: 'CreateMpoInput' });

export const listMposQuery = pageQuery;

export const mpoView = z.object({ id: z.uuid(), channel: z.string(), provider: z.string(), name: z.string(), ...timestamps }).meta({ id: 'Mpo' });
export type MpoView = z.output<typeof mpoView>;
