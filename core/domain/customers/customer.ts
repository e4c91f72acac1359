import type { Address } from '../addresses/address.js';

/** How the customer receives its invoices: a PDF, a PDF with embedded CII XML (Factur-X/ZUGFeRD) or XRechnung XML. */
export const INVOICE_FORMATS = ['pdf', 'facturx', 'xrechnung'] as const;
export type InvoiceFormat = (typeof INVOICE_FORMATS)[number];
export const DEFAULT_INVOICE_FORMAT: InvoiceFormat = 'pdf';

export class Customer {
  id!: string;
  accountId!: string;
  companyName!: string | null;
  address!: Address | null;
  deliveryAddress!: Address | null;
  invoiceEmail!: string | null;
  email!: string | null;
  number!: string | null;
  salutation!: string | null;
  title!: string | null;
  firstName!: string | null;
  lastName!: string | null;
  phone1!: string | null;
  phone2!: string | null;
  /** VAT identification number (USt-IdNr.) of a business customer, normalised; BT-48 of the e-invoice. */
  vatId!: string | null;
  /** Buyer reference (BT-10), e.g. the Leitweg-ID of a public buyer. */
  buyerReference!: string | null;
  invoiceFormat!: InvoiceFormat;
  customAttributes!: Record<string, unknown>;
  createdAt!: Date;
  updatedAt!: Date;
}

/** How documents and payment files name the customer: the company, else the person, else the customer number. */
export function customerDisplayName(customer: Pick<Customer, 'companyName' | 'title' | 'firstName' | 'lastName' | 'number' | 'id'>): string {
  return customer.companyName ?? ([customer.title, customer.firstName, customer.lastName].filter(Boolean).join(' ') || (customer.number ?? customer.id));
}
