import { z } from 'zod';
import { addressInput, addressView } from '../addresses.commands.js';
import { isValidTimeZone, ROLES } from '../domain/accounts/account.js';
import { checkGermanVatId, checkSepaCreditorId, checkTaxNumber } from '../domain/legal/identifiers.js';
import { normaliseBic, normaliseIban } from '../domain/payments/bank-account.js';
import { identifier, normalised, optionalEmail, readOnlyEcho, timestamps } from '../field-formats.js';
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

const text = (max: number) => z.string().trim().min(1).max(max);
const nullableText = (max: number) => text(max).nullish().transform((v) => v ?? null);

const WEBSITE = /^(https?:\/\/)?[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?(\/\S*)?$/i;

/** Checked like every IBAN of the code base (ibantools: country format and ISO 13616 mod-97), stored electronic. */
const iban = z.string().transform((value, ctx) => {
  const electronic = normaliseIban(value);
  if (electronic !== null) return electronic;
  ctx.addIssue({ code: 'custom', message: 'Expected an IBAN with a valid country format and ISO 13616 check digits.', params: { code: 'invalid_iban' } });
  return z.NEVER;
});

const contactInput = z
  .object({
    email: optionalEmail,
    phone: nullableText(50),
    website: text(200)
      .refine((value) => WEBSITE.test(value), { message: 'Expected a web address such as www.example.com or https://example.com.', params: { code: 'invalid_website' } })
      .nullish()
      .transform((v) => v ?? null),
  })
  .strict();

/** A bank account is its IBAN: `iban` is required in it (`bankAccount: null` removes the account). */
const bankAccountInput = z
  .object({
    accountHolder: nullableText(200),
    iban,
    bic: normalised(normaliseBic, 'invalid_bic', 'Expected a BIC of 8 or 11 characters (ISO 9362).'),
  })
  .strict();

const accountProfileFields = {
  companyName: text(200),
  address: addressInput.nullish().transform((v) => v ?? null),
  // Rule: USt-IdNr. is `DE` followed by nine digits, the last a check digit; the German check digit
  // is ISO 7064 MOD 11,10 over the first eight digits (core/domain/legal/identifiers.ts).
  vatId: identifier(checkGermanVatId, {
    invalid_format: 'Expected a German VAT id (USt-IdNr.): DE followed by nine digits, e.g. DE136695976.',
    invalid_check_digit: 'The last digit of the VAT id is not its check digit (ISO 7064 MOD 11,10 over the first eight digits).',
  }),
  // Rule: the Steuernummer is free text of digits, spaces and slashes.
  taxNumber: identifier(checkTaxNumber, {
    invalid_format: 'Expected a tax number (Steuernummer) of digits, spaces and slashes, at most 20 characters, e.g. 21/815/08150.',
    invalid_check_digit: 'The tax number is not valid.',
  }),
  registerCourt: nullableText(200),
  registerNumber: nullableText(100),
  managingDirectors: z.array(text(200)).max(20).nullish().transform((v) => v ?? []),
  // Always an object; `contact: null` clears every field of it.
  contact: contactInput.nullish().transform((v) => v ?? { email: null, phone: null, website: null }),
  bankAccount: bankAccountInput.nullish().transform((v) => v ?? null),
  // Rule: a SEPA creditor identifier is checked with ISO 7064 mod 97-10: country code, 2 check
  // digits, 3-character business code that is NOT part of the check, national id.
  sepaCreditorId: identifier(checkSepaCreditorId, {
    invalid_format: 'Expected a SEPA creditor identifier: country code, 2 check digits, a 3-character business code and the national identifier (11 digits in DE), e.g. DE98ZZZ09999999999.',
    invalid_check_digit: 'The check digits of the SEPA creditor identifier do not match (ISO 7064 MOD 97-10, business code excluded).',
  }),
  // Null: invoices print the default notice (DEFAULT_DISPUTE_RESOLUTION_TEXT).
  disputeResolutionText: nullableText(2000),
};

/** Set when the account is created; shown, and accepted unchanged in a patch, but not changed through the API. */
export const READ_ONLY_ACCOUNT_FIELDS = ['timezone', 'currency'] as const;

/** The account's seller profile as a whole: what a merged patch must satisfy. */
export const accountProfileCommand = z
  .object({ ...accountProfileFields, timezone: z.string(), currency: z.string() })
  .strict();

/**
 * PATCH of the account (JSON merge patch): the seller profile and the company name. Objects merge
 * key by key (`address`, `contact`, `bankAccount`), `managingDirectors` is replaced as a whole.
 */
export const updateAccountCommand = z
  .object({
    ...readOnlyEcho,
    timezone: z.string().meta({ readOnly: true }),
    currency: z.string().meta({ readOnly: true }),
    ...accountProfileFields,
    address: addressInput.partial().nullable(),
    managingDirectors: z.array(text(200)).max(20).nullable(),
    contact: contactInput.partial().nullable(),
    bankAccount: bankAccountInput.partial().nullable(),
  })
  .partial()
  .strict()
  .meta({ id: 'UpdateAccountInput' });

const contactView = z.object({ email: z.string().nullable(), phone: z.string().nullable(), website: z.string().nullable() });
const bankAccountView = z.object({ accountHolder: z.string().nullable(), iban: z.string(), bic: z.string().nullable() });

export const accountView = z.object({
  id: z.uuid(),
  companyName: z.string(),
  timezone: z.string(),
  currency: z.string(),
  address: addressView.nullable(),
  vatId: z.string().nullable(),
  taxNumber: z.string().nullable(),
  registerCourt: z.string().nullable(),
  registerNumber: z.string().nullable(),
  managingDirectors: z.array(z.string()),
  contact: contactView,
  bankAccount: bankAccountView.nullable(),
  sepaCreditorId: z.string().nullable(),
  disputeResolutionText: z.string().nullable().describe('Null: invoices print the default notice (Schlichtungsstelle Energie, Verbraucherservice Energie of the Bundesnetzagentur).'),
  ...timestamps,
}).meta({ id: 'Account' });
export type AccountView = z.output<typeof accountView>;

export const userView = z.object({
  id: z.uuid(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  phone1: z.string().nullable(),
  phone2: z.string().nullable(),
  email: z.string(),
  role: z.enum(ROLES),
  createdAt: z.string().meta({ format: 'date-time' }),
  updatedAt: z.string().meta({ format: 'date-time' }),
}).meta({ id: 'User' });
export type UserView = z.output<typeof userView>;
