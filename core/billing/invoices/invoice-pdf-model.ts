import type { Address } from '../../domain/addresses/address.js';
import type { PriceComponentCategory } from '../../domain/billing/price.js';
import type { FuelSource } from '../../domain/products/electricity-product.js';

/** The closed sets the model uses are the domain's: §40 (3) EnWG price categories and §42 EnWG energy sources. */
export { PRICE_COMPONENT_CATEGORIES, type PriceComponentCategory } from '../../domain/billing/price.js';
export { FUEL_SOURCES, type FuelSource } from '../../domain/products/electricity-product.js';

/*
 * The input of the invoice PDF: everything an invoice or cancellation invoice prints, already
 * decided and formatted as the API shows it. Calendar dates are YYYY-MM-DD; periods are half-open
 * (the end is the first day after). Amounts and quantities are exact decimal strings ("1234.567",
 * "0.289500", "-19.00"); the renderer keeps every decimal given.
 */

/** How a meter's consumption was obtained. */
export const CONSUMPTION_METHODS = ['measured', 'calculated', 'estimated'] as const;
export type ConsumptionMethod = (typeof CONSUMPTION_METHODS)[number];

export interface InvoiceSeller {
  /** Legal name, e.g. "Stadtwerke Musterstadt GmbH". */
  name: string;
  /** Postal address of the registered office; null when unknown. */
  address: Address | null;
  /** USt-IdNr., e.g. "DE123456789"; null when the seller has none (then taxNumber is printed). */
  vatId: string | null;
  /** Steuernummer, e.g. "123/456/78901"; null when not printed. */
  taxNumber: string | null;
  /** Commercial register entry, e.g. { court: "Amtsgericht Musterstadt", number: "HRB 12345" }; null when not registered. */
  register: { court: string; number: string } | null;
  /** Managing directors (Geschäftsführung) in the order printed; empty when none are named. */
  managingDirectors: string[];
  /** Customer-service contact; each null when not published. */
  contact: { email: string | null; phone: string | null; website: string | null };
  /** The account transfers are paid to; null when none is printed. */
  bankAccount: { holder: string; iban: string; bic: string | null } | null;
}

export interface InvoiceCustomer {
  /** Name as addressed, e.g. "Erika Mustermann" or a company name. */
  name: string;
  /** The seller's customer number; null when the customer has none. */
  number: string | null;
  /** Postal address for the address window; null when unknown. */
  address: Address | null;
  /** VAT identification number of a business customer (BT-48), e.g. "DE136695976"; null when it has none. */
  vatId: string | null;
  /** Buyer reference (BT-10), e.g. the Leitweg-ID of a public buyer; null when the customer gave none. */
  buyerReference: string | null;
}

export interface InvoiceLine {
  /** What is billed, e.g. "Arbeitspreis Strom". */
  description: string;
  /** The line's own period (half-open). */
  periodStart: string;
  periodEnd: string;
  /** Quantity in `unit`, e.g. "1234.567". */
  quantity: string;
  /** Unit of the quantity, e.g. "kWh", "Monat". */
  unit: string;
  /** Net price per unit, e.g. "0.289500". */
  unitPrice: string;
  /** VAT percentage, e.g. "19.00". */
  taxRate: string;
  /** Net amount of the line. */
  netAmount: string;
}

export interface InvoiceTax {
  /** VAT percentage, e.g. "19.00". */
  percentage: string;
  /** Net amount taxed at this rate. */
  netAmount: string;
  /** VAT at this rate. */
  taxAmount: string;
}

export interface InvoiceMeter {
  /** Market location id (MaLo-ID, 11 digits); null when the meter has none. */
  marketLocationId: string | null;
  /** The meter's number (identifier). */
  meterNumber: string;
  /** What the meter measures in the tenant's words, e.g. "Wohnung 3" or "Wärmepumpe"; null for none. */
  label: string | null;
  /** Register readings in kWh at the start of the given days; null for interval and virtual meters. */
  readings: { startDate: string; start: string; endDate: string; end: string } | null;
  /** Consumption in the period, kWh. */
  consumption: string;
  /** How the consumption was obtained. */
  method: ConsumptionMethod;
  /** Consumption in the same period one year earlier, kWh; null when there are no data. */
  previousYearConsumption: string | null;
}

export interface InvoiceFuelMix {
  /** The year the disclosed mix refers to. */
  year: number;
  /** Shares of the energy sources in per cent, e.g. "38.5"; sources not listed are 0 %. */
  sources: Array<{ source: FuelSource; percentage: string }>;
  /** CO2 emissions in g/kWh; null when not stated. */
  co2: string | null;
  /** Radioactive waste in mg/kWh; null when not stated. */
  radioactiveWaste: string | null;
}

export interface InvoiceCancellationTerms {
  /** The last day a notice of termination must reach the seller. */
  noticeBy: string;
  /** The first day without supply when notice is given by `noticeBy` (exclusive like periodEnd; the day before is printed). */
  endsOn: string;
  /** The contract's notice period. */
  noticePeriod: { value: number; unit: 'day' | 'week' | 'month' };
}

/** How the amount due is settled; a credit (negative amount due) is paid out to `customerIban` when known. */
export type InvoicePayment =
  | {
      /** SEPA direct debit on the due date. */
      method: 'sepa_direct_debit';
      /** The mandate reference (Mandatsreferenz). */
      mandateReference: string;
      /** The seller's SEPA creditor id (Gläubiger-ID), e.g. "DE98ZZZ09999999999". */
      creditorId: string;
      /** The customer's account the mandate debits and credits are paid to; null when unknown. */
      customerIban: string | null;
    }
  | {
      /** The customer transfers the amount due to the seller's account. */
      method: 'transfer';
      /** The customer's account credits are paid to; null when unknown. */
      customerIban: string | null;
    };

export interface InvoiceDocument {
  /** An invoice, or a credit note that cancels an invoice (printed as "Stornorechnung"). */
  kind: 'invoice' | 'credit_note';
  /** Language and number format of every label. */
  locale: 'de-DE' | 'en-GB';
  /** The document's number, e.g. "INV-2026-000001". */
  number: string;
  /** Issue date. */
  issuedAt: string;
  /** When the amount due is debited or must be paid (or a credit is paid out). */
  dueDate: string;
  /** The supply period (half-open). */
  periodStart: string;
  periodEnd: string;
  /** ISO 4217 currency of every amount, e.g. "EUR". */
  currency: string;
  /** The supplier issuing the invoice. */
  seller: InvoiceSeller;
  /** The invoice's recipient. */
  customer: InvoiceCustomer;
  /** The contract's number; null when unknown. */
  contractNumber: string | null;
  /** The product (tariff) supplied; null when not printed. */
  productName: string | null;
  /** Where the electricity is supplied (Lieferstelle); null when it is the customer's address or unknown. */
  supplyAddress: Address | null;
  /** Texts of the template. */
  template: { subject: string | null; introText: string | null; closingText: string | null; footerText: string | null };
  /**
   * For a credit note: the cancelled invoice's number and issue date (null when unknown), what the
   * cancellation pays back of what the customer paid towards it ("0.00" when nothing was paid), and
   * what a payment run is collecting towards it, which is paid back once it arrives ("0.00" when
   * nothing is). When the cancelled invoice gave a credit (the credit note's amount due is
   * positive): what of the credit reached the customer, which the credit note asks back, and what a
   * payment run is paying out of it, asked back once it has arrived ("0.00" when none).
   */
  cancels: { number: string; issuedAt: string | null; refunded: string; collecting: string; creditPaidOut: string; creditPayingOut: string } | null;
  /** The billed lines. */
  lines: InvoiceLine[];
  /** Net total of the lines. */
  netTotal: string;
  /** VAT per rate. */
  taxes: InvoiceTax[];
  /** Net total plus VAT. */
  grossTotal: string;
  /** Gross prepayments deducted (positive on an invoice). */
  prepaymentsTotal: string;
  /** The VAT contained in the prepayments deducted, per rate (§14 (5) UStG); empty without prepayments. */
  prepaymentTaxes: InvoiceTax[];
  /** Gross total less prepayments; negative for a credit. */
  amountDue: string;
  /** How the amount due is settled. */
  payment: InvoicePayment;
  /** The meters billed, each with its consumption. */
  meters: InvoiceMeter[];
  /** Net amounts per price component category (§40 (3) EnWG), in the order of PRICE_COMPONENT_CATEGORIES; empty when not broken down. */
  priceComponents: Array<{ category: PriceComponentCategory; netAmount: string }>;
  /** The prepayments due next (gross); empty when none are planned. */
  nextPrepayments: Array<{ dueDate: string; amount: string }>;
  /** The product's fuel mix disclosure (§42 EnWG); null when not stated. */
  fuelMix: InvoiceFuelMix | null;
  /** The contract's next possible termination; null when not printed (e.g. already terminated). */
  cancellation: InvoiceCancellationTerms | null;
  /**
   * Complaints and dispute resolution (§40 (2) Nr. 8 EnWG): the seller's own text, else the default
   * of the locale (DEFAULT_DISPUTE_RESOLUTION_TEXT / _EN in core/domain/accounts/seller-details.ts).
   */
  disputeResolution: string;
}
