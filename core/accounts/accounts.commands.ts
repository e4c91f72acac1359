import { z } from 'zod';
import { isValidTimeZone, ROLES } from '../domain/accounts/account.js';
import { pageQuery } from '../pagination.js';

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

export const updateUserRoleCommand = z.object({ id: z.uuid(), role: z.enum(ROLES) }).strict();

export const createApiTokenCommand = z.object({ userId: z.uuid() }).strict();
export const revokeApiTokenCommand = z.object({ id: z.uuid() }).strict();

export const listUsersQuery = pageQuery;

export const accountView = z.object({
  id: z.uuid(),
  companyName: z.string(),
  timezone: z.string(),
  currency: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AccountView = z.output<typeof accountView>;

export const userView = z.object({
  id: z.uuid(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  phone1: z.string().nullable(),
  phone2: z.string().nullable(),
  email: z.string(),
  role: z.enum(ROLES),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type UserView = z.output<typeof userView>;
