import { z } from 'zod';
import { isValidTimeZone, ROLES } from '../domain/accounts/account.js';

const email = z.email().max(320).transform((value) => value.toLowerCase());
const optionalText = z.string().trim().min(1).max(200).nullish();

export const createAccountCommand = z
  .object({
    companyName: z.string().trim().min(1).max(200),
    email,
    timezone: z
      .string()
      .refine(isValidTimeZone, { message: 'Expected an IANA time zone such as Europe/Berlin.', params: { code: 'invalid_timezone' } })
      .default('Europe/Berlin'),
    firstName: optionalText,
    lastName: optionalText,
  })
  .strict();

export const createUserCommand = z
  .object({
    accountId: z.uuid(),
    email,
    role: z.enum(ROLES),
    firstName: optionalText,
    lastName: optionalText,
    phone1: optionalText,
    phone2: optionalText,
  })
  .strict();

export const createApiTokenCommand = z.object({ userId: z.uuid() }).strict();
export const revokeApiTokenCommand = z.object({ id: z.uuid() }).strict();
