import { z } from 'zod';
import { addressInput, addressView } from '../addresses.commands.js';
import { customAttributesInput } from '../custom-attributes/custom-attributes.commands.js';
import { DEFAULT_INVOICE_FORMAT, INVOICE_FORMATS } from '../domain/customers/customer.js';
import { checkVatId, VAT_ID_PATTERN } from '../domain/legal/identifiers.js';
import { identifier, optionalEmail, optionalText, readOnlyEcho, timestamps } from '../field-formats.js';
import { pageQuery } from '../pagination.js';
import type { RemovedField } from '../validation.js';

const customerFields = {
  companyName: optionalText,
  address: addressInput.nullish().transform((v) => v ?? null),
  deliveryAddress: addressInput.nullish().transform((v) => v ?? null),
  invoiceEmail: optionalEmail,
  email: optionalEmail,
  number: z.string().trim().min(1).max(100).nullish().transform((v) => v ?? null),
  salutation: optionalText,
  title: optionalText,
  firstName: optionalText,
  lastName: optionalText,
  phone1: optionalText,
  phone2: optionalText,
  // Rule: any EU VAT id format after removing spaces and upper-casing; a German one (DE) also has
  // its check digit checked (ISO 7064 MOD 11,10 over the first eight digits).
  vatId: identifier(checkVatId, {
    invalid_format: 'Expected a VAT identification number: a two-letter country prefix and 2 to 12 letters, digits, +, * or ., e.g. DE136695976.',
    invalid_check_digit: 'The last digit of the German VAT id is not its check digit (ISO 7064 MOD 11,10 over the first eight digits).',
  }).meta({ description: `USt-IdNr. of a business customer (BT-48), normalised: spaces removed, upper case; pattern ${VAT_ID_PATTERN.source}`, examples: ['DE136695976'] }),
  buyerReference: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .nullish()
    .transform((v) => v ?? null)
    .meta({ description: 'Buyer reference (BT-10) of the e-invoice, e.g. the Leitweg-ID of a public buyer; default: the customer or contract number', examples: ['04011000-12345-03'] }),
  invoiceFormat: z
    .enum(INVOICE_FORMATS)
    .nullish()
    .transform((v) => v ?? DEFAULT_INVOICE_FORMAT)
    .meta({ description: 'pdf (default; null resets to it), facturx (PDF with embedded CII XML) or xrechnung (XML)' }),
  customAttributes: customAttributesInput,
};

/** A customer is a company or a person: `companyName` or `lastName` is required. */
export const createCustomerCommand = z
  .object({ ...customerFields, customAttributes: customAttributesInput.default({}) })
  .strict()
  .superRefine((customer, ctx) => {
    if (!customer.companyName && !customer.lastName) {
      ctx.addIssue({ code: 'custom', path: ['companyName'], message: 'Give companyName or lastName.', params: { code: 'company_name_or_last_name_required' } });
    }
  })
  .meta({ id: 'CreateCustomerInput' });

export const updateCustomerCommand = z
  .object({ ...readOnlyEcho, ...customerFields, address: addressInput.partial().nullable(), deliveryAddress: addressInput.partial().nullable() })
  .partial()
  .strict()
  .meta({ id: 'UpdateCustomerInput' });

export const listCustomersQuery = pageQuery;

export const removedCustomerFields: RemovedField[] = [
  { path: ['siteId'], replacement: 'contracts (a customer reaches sites through its contracts)' },
  { path: ['type'], replacement: 'companyName for companies, or the contact fields for persons' },
  { path: ['customerNumber'], replacement: 'number' },
  { path: ['billingEmail'], replacement: 'invoiceEmail' },
  { path: ['person'], replacement: 'salutation, title, firstName, lastName, phone1, phone2' },
  { path: ['shippingAddress'], replacement: 'deliveryAddress' },
  { path: ['billingAddress'], replacement: 'address' },
];

export const customerView = z.object({
  id: z.uuid(),
  companyName: z.string().nullable(),
  address: addressView.nullable(),
  deliveryAddress: addressView.nullable(),
  invoiceEmail: z.string().nullable(),
  email: z.string().nullable(),
  number: z.string().nullable(),
  salutation: z.string().nullable(),
  title: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  phone1: z.string().nullable(),
  phone2: z.string().nullable(),
  vatId: z.string().nullable(),
  buyerReference: z.string().nullable(),
  invoiceFormat: z.enum(INVOICE_FORMATS),
  customAttributes: z.record(z.string(), z.unknown()),
  ...timestamps,
}).meta({ id: 'Customer' });
export type CustomerView = z.output<typeof customerView>;
