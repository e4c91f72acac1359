import { z } from 'zod';
import { normaliseBic, normaliseIban } from '../domain/payments/bank-account.js';
import { PAYMENT_METHOD_TYPES } from '../domain/payments/payment-method.js';
import { isSepaIdentifier } from '../domain/payments/sepa-text.js';
import { calendarDate, normalised, optionalText, readOnlyEcho, reference, timestamps } from '../field-formats.js';
import { pageQuery } from '../pagination.js';

const paymentMethodFields = {
  customerId: reference,
  type: z.enum(PAYMENT_METHOD_TYPES),
  accountHolder: optionalText,
  iban: normalised(normaliseIban, 'invalid_iban', 'Expected an IBAN with a valid country format and ISO 13616 check digits.'),
  bic: normalised(normaliseBic, 'invalid_bic', 'Expected a BIC of 8 or 11 characters (ISO 9362).'),
  mandateReference: z
    .string()
    .trim()
    .min(1)
    .refine(isSepaIdentifier, { message: "A SEPA mandate reference: at most 35 characters of a-z A-Z 0-9 / - ? : ( ) . , ' + and space, not starting or ending with \"/\", without \"//\".", params: { code: 'invalid_mandate_reference' } })
    .nullish()
    .transform((v) => v ?? null),
  mandateSignedAt: calendarDate.nullish().transform((v) => v ?? null),
  isDefault: z.boolean(),
};

/** A SEPA direct debit needs the account, its holder and the signed mandate. */
const DIRECT_DEBIT_FIELDS = ['accountHolder', 'iban', 'mandateReference', 'mandateSignedAt'] as const;

export const createPaymentMethodCommand = z
  .object({ ...paymentMethodFields, isDefault: paymentMethodFields.isDefault.optional() })
  .strict()
  .superRefine((method, ctx) => {
    if (method.type !== 'sepa_direct_debit') return;
    for (const field of DIRECT_DEBIT_FIELDS) {
      if (method[field] === null) {
        ctx.addIssue({ code: 'custom', path: [field], message: `A sepa_direct_debit payment method needs ${field}.`, params: { code: 'required_for_direct_debit' } });
      }
    }
  })
  .meta({ id: 'CreatePaymentMethodInput' });
export const updatePaymentMethodCommand = z.object({ ...readOnlyEcho, ...paymentMethodFields }).partial().strict().meta({ id: 'UpdatePaymentMethodInput' });
export const listPaymentMethodsQuery = pageQuery.extend({ customerId: z.uuid().optional() }).strict();

export const paymentMethodView = z.object({
  id: z.uuid(),
  customerId: z.uuid(),
  type: z.enum(PAYMENT_METHOD_TYPES),
  accountHolder: z.string().nullable(),
  iban: z.string().nullable(),
  bic: z.string().nullable(),
  mandateReference: z.string().nullable(),
  mandateSignedAt: z.string().nullable().meta({ format: 'date' }),
  isDefault: z.boolean(),
  ...timestamps,
}).meta({ id: 'PaymentMethod' });
export type PaymentMethodView = z.output<typeof paymentMethodView>;
