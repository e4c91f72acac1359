import { z } from 'zod';
import { isCountryCode } from './domain/addresses/address.js';

const line = z.string().trim().max(200).nullish().transform((value) => value ?? null);

export const addressInput = z
  .object({
    line1: line,
    line2: line,
    line3: line,
    line4: line,
    locality: z.string().trim().min(1).max(200),
    postCode: z.string().trim().min(1).max(20),
    country: z.string().refine(isCountryCode, {
      message: 'Expected an ISO 3166-1 alpha-2 country code in upper case, e.g. DE.',
      params: { code: 'invalid_country' },
    }),
  })
  .strict()
  .meta({ id: 'AddressInput' });

export const addressView = z.object({
  line1: z.string().nullable(),
  line2: z.string().nullable(),
  line3: z.string().nullable(),
  line4: z.string().nullable(),
  locality: z.string(),
  postCode: z.string(),
  country: z.string(),
}).meta({ id: 'Address' });
