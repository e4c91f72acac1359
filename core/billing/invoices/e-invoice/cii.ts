import type { Address } from '../../../domain/addresses/address.js';
import { divideRounded, formatCents, formatDecimal, taxOf } from '../../../domain/billing/money.js';
import { UNPRINTABLE_CHARACTERS } from '../document-text.js';
import { Format } from '../invoice-pdf-format.js';
import { labels } from '../invoice-pdf-labels.js';
import type { InvoiceDocument, InvoiceLine } from '../invoice-pdf-model.js';
import { paymentText, settlementOf } from '../invoice-pdf-payment.js';

/*
 * An EN 16931 e-invoice in the UN/CEFACT Cross Industry Invoice syntax (CII D16B), written from the
 * same InvoiceDocument the PDF prints. Every amount is rounded to the cent once and every total is
 * summed from the written values, so that CEN's sum rules hold by construction: BR-CO-10 (line
 * total = Σ line nets), BR-S-08 (basis per rate = Σ lines at that rate), BR-CO-13/15 and BR-CO-16
 * (amount due = total − paid). A credit note (381) is written with positive amounts.
 */

export const E_INVOICE_PROFILES = ['xrechnung', 'en16931'] as const;
export type EInvoiceProfile = (typeof E_INVOICE_PROFILES)[number];

/** BT-24 of each profile. */
export const SPECIFICATION_IDS: Record<EInvoiceProfile, string> = {
  xrechnung: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
  en16931: 'urn:cen.eu:en16931:2017',
};

/** BT-23: the PEPPOL billing process (XRechnung's default). */
const BUSINESS_PROCESS = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

const NAMESPACES =
  'xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" ' +
  'xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" ' +
  'xmlns:qdt="urn:un:unece:uncefact:data:standard:QualifiedDataType:100" ' +
  'xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"';

/** What XML content cannot carry as is: the five special characters, and the characters XML 1.0 forbids. */
const NOT_PLAIN = new RegExp(`[${UNPRINTABLE_CHARACTERS}&<>"']`, 'g');
const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text and attribute content escaped; characters XML 1.0 forbids dropped (one pass; most values need nothing). */
export function escapeXml(value: string): string {
  return value.replace(NOT_PLAIN, (char) => ENTITIES[char] ?? '');
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** A decimal string rounded half away from zero to `scale` decimals, as an integer of 10^-scale units. */
function units(value: string, scale: number): bigint {
  const match = DECIMAL.exec(value.trim());
  if (!match) throw new RangeError(`not a decimal: ${value}`);
  const fraction = match[3] ?? '';
  const exact = BigInt(match[2]! + fraction) * (match[1] ? -1n : 1n);
  return fraction.length <= scale ? exact * 10n ** BigInt(scale - fraction.length) : divideRounded(exact, 10n ** BigInt(fraction.length - scale));
}

const cents = (value: string) => units(value, 2);
const negate = (value: string) => (value.startsWith('-') ? value.slice(1) : /^0*\.?0*$/.test(value) ? value : `-${value}`);
const abs = (value: string) => (value.startsWith('-') ? value.slice(1) : value);

/** YYYY-MM-DD as CII's date format 102. */
const date102 = (day: string) => `<udt:DateTimeString format="102">${day.replaceAll('-', '')}</udt:DateTimeString>`;

/** The day before a calendar date (the last day of a half-open period). */
export function dayBefore(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}

const MONTH_UNITS = new Set(['month', 'months', 'monat', 'monate']);

/** UN/ECE Rec. 20 unit of a printed unit: kWh KWH, months MON, anything else C62 (one). */
export function unitCode(unit: string): string {
  const key = unit.trim().toLowerCase();
  if (key === 'kwh') return 'KWH';
  if (MONTH_UNITS.has(key)) return 'MON';
  return 'C62';
}

const element = (name: string, content: string | null | undefined) => (content === null || content === undefined || content === '' ? '' : `<ram:${name}>${escapeXml(content)}</ram:${name}>`);

function addressXml(address: Address): string {
  const lines = [address.line1, address.line2, address.line3, address.line4].filter((line): line is string => !!line && line.trim() !== '');
  const [one, two, ...rest] = lines;
  return (
    '<ram:PostalTradeAddress>' +
    element('PostcodeCode', address.postCode) +
    element('LineOne', one) +
    element('LineTwo', two) +
    element('LineThree', rest.join(', ')) +
    element('CityName', address.locality) +
    element('CountryID', address.country) +
    '</ram:PostalTradeAddress>'
  );
}

/** Percentages compared as numbers ("19", "19.0", "19.00" are one rate). */
const rateKey = (percentage: string) => formatDecimal(units(percentage, 2), 2);
const categoryOf = (rate: string) => (units(rate, 2) === 0n ? 'Z' : 'S');

interface WrittenLine {
  line: InvoiceLine;
  quantity: string;
  unitPrice: string;
  net: bigint;
  rate: string;
}

/**
 * The line as written: net rounded to the cent (BR-DEC-23), the price never negative (BR-27) — a
 * negative price turns into a negative quantity; on a credit note every sign is turned.
 */
function writtenLine(line: InvoiceLine, credit: boolean): WrittenLine {
  let quantity = credit ? negate(line.quantity) : line.quantity;
  const net = cents(line.netAmount) * (credit ? -1n : 1n);
  if (line.unitPrice.startsWith('-')) quantity = negate(quantity);
  return { line, quantity, unitPrice: abs(line.unitPrice), net, rate: rateKey(line.taxRate) };
}

export interface CiiOptions {
  profile?: EInvoiceProfile;
}

/**
 * BT-20: the payment instructions the PDF prints beside the amount due, so that a receiver of the
 * e-invoice alone learns what the amounts cannot say (a Stornorechnung pays back only what was paid,
 * and one of a credit asks back only what was paid out).
 */
function paymentTerms(document: InvoiceDocument): string {
  const l = labels[document.locale];
  return paymentText(document, l, new Format(l, document.currency));
}

/** The CII XML of an issued invoice or credit note. */
export function writeCii(document: InvoiceDocument, options: CiiOptions = {}): string {
  return inProfile(options.profile ?? 'xrechnung', ciiBody(document));
}

/** The CII XML of an issued invoice or credit note in every profile, the document written once. */
export function writeCiiProfiles(document: InvoiceDocument): Map<EInvoiceProfile, string> {
  const body = ciiBody(document);
  return new Map(E_INVOICE_PROFILES.map((profile) => [profile, inProfile(profile, body)]));
}

/** The profiles differ only in the specification identifier (BT-24) of the document's context. */
function inProfile(profile: EInvoiceProfile, body: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<rsm:CrossIndustryInvoice ${NAMESPACES}>\n` +
    '<rsm:ExchangedDocumentContext>' +
    `<ram:BusinessProcessSpecifiedDocumentContextParameter><ram:ID>${BUSINESS_PROCESS}</ram:ID></ram:BusinessProcessSpecifiedDocumentContextParameter>` +
    `<ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>${escapeXml(SPECIFICATION_IDS[profile])}</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter>` +
    '</rsm:ExchangedDocumentContext>\n' +
    body
  );
}

/** Everything after the document's context, to the end of the root element. */
function ciiBody(document: InvoiceDocument): string {
  const credit = document.kind === 'credit_note';
  const sign = credit ? -1n : 1n;
  const currency = escapeXml(document.currency);
  const amount = (value: bigint) => formatCents(value);
  const { seller, customer, payment } = document;

  const lines = document.lines.map((line) => writtenLine(line, credit));
  const lineTotal = lines.reduce((sum, line) => sum + line.net, 0n);

  // VAT breakdown: basis per rate from the written lines; the document's VAT at that rate when its basis agrees, else computed like the invoice does.
  const stated = new Map(document.taxes.map((tax) => [rateKey(tax.percentage), { net: cents(tax.netAmount) * sign, tax: cents(tax.taxAmount) * sign }]));
  const bases = new Map<string, bigint>();
  for (const line of lines) bases.set(line.rate, (bases.get(line.rate) ?? 0n) + line.net);
  const breakdown = [...bases].map(([rate, basis]) => {
    const known = stated.get(rate);
    return { rate, basis, tax: known && known.net === basis ? known.tax : taxOf(basis, units(rate, 2)) };
  });
  const taxTotal = breakdown.reduce((sum, entry) => sum + entry.tax, 0n);
  const grandTotal = lineTotal + taxTotal;
  const paid = cents(document.prepaymentsTotal) * sign;
  const due = grandTotal - paid;

  const meterIds = document.meters.length === 1 && document.meters[0]!.marketLocationId ? [document.meters[0]!.marketLocationId] : [];
  const buyerReference = customer.buyerReference ?? customer.number ?? document.contractNumber ?? '';
  const customerService = document.locale === 'de-DE' ? 'Kundenservice' : 'Customer service';

  const out: string[] = [];
  out.push(
    '<rsm:ExchangedDocument>' +
      element('ID', document.number) +
      `<ram:TypeCode>${credit ? '381' : '380'}</ram:TypeCode>` +
      `<ram:IssueDateTime>${date102(document.issuedAt)}</ram:IssueDateTime>` +
      (document.template.subject ? `<ram:IncludedNote>${element('Content', document.template.subject)}</ram:IncludedNote>` : '') +
      '</rsm:ExchangedDocument>',
  );
  out.push('<rsm:SupplyChainTradeTransaction>');
  lines.forEach((written, index) => {
    const { line } = written;
    out.push(
      '<ram:IncludedSupplyChainTradeLineItem>' +
        `<ram:AssociatedDocumentLineDocument><ram:LineID>${index + 1}</ram:LineID></ram:AssociatedDocumentLineDocument>` +
        `<ram:SpecifiedTradeProduct>${element('Name', line.description)}</ram:SpecifiedTradeProduct>` +
        `<ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice>${element('ChargeAmount', written.unitPrice)}</ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement>` +
        `<ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="${unitCode(line.unit)}">${escapeXml(written.quantity)}</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>` +
        '<ram:SpecifiedLineTradeSettlement>' +
        `<ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>${categoryOf(written.rate)}</ram:CategoryCode><ram:RateApplicablePercent>${written.rate}</ram:RateApplicablePercent></ram:ApplicableTradeTax>` +
        `<ram:BillingSpecifiedPeriod><ram:StartDateTime>${date102(line.periodStart)}</ram:StartDateTime><ram:EndDateTime>${date102(dayBefore(line.periodEnd))}</ram:EndDateTime></ram:BillingSpecifiedPeriod>` +
        `<ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>${amount(written.net)}</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation>` +
        '</ram:SpecifiedLineTradeSettlement>' +
        '</ram:IncludedSupplyChainTradeLineItem>',
    );
  });

  // BG-4 seller, BG-7 buyer with BT-48 (its VAT id), BT-10 (the buyer's reference, else the customer or contract number), BT-12 contract, BT-18 object (the MaLo-ID).
  const sellerTax =
    (seller.vatId ? `<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">${escapeXml(seller.vatId)}</ram:ID></ram:SpecifiedTaxRegistration>` : '') +
    (seller.taxNumber ? `<ram:SpecifiedTaxRegistration><ram:ID schemeID="FC">${escapeXml(seller.taxNumber)}</ram:ID></ram:SpecifiedTaxRegistration>` : '');
  out.push(
    '<ram:ApplicableHeaderTradeAgreement>' +
      element('BuyerReference', buyerReference) +
      '<ram:SellerTradeParty>' +
      element('Name', seller.name) +
      (seller.register ? `<ram:SpecifiedLegalOrganization>${element('ID', `${seller.register.court} ${seller.register.number}`)}</ram:SpecifiedLegalOrganization>` : '') +
      '<ram:DefinedTradeContact>' +
      element('PersonName', customerService) +
      (seller.contact.phone ? `<ram:TelephoneUniversalCommunication>${element('CompleteNumber', seller.contact.phone)}</ram:TelephoneUniversalCommunication>` : '') +
      (seller.contact.email ? `<ram:EmailURIUniversalCommunication>${element('URIID', seller.contact.email)}</ram:EmailURIUniversalCommunication>` : '') +
      '</ram:DefinedTradeContact>' +
      (seller.address ? addressXml(seller.address) : '') +
      (seller.contact.email ? `<ram:URIUniversalCommunication><ram:URIID schemeID="EM">${escapeXml(seller.contact.email)}</ram:URIID></ram:URIUniversalCommunication>` : '') +
      sellerTax +
      '</ram:SellerTradeParty>' +
      '<ram:BuyerTradeParty>' +
      element('Name', customer.name) +
      (customer.address ? addressXml(customer.address) : '') +
      (customer.vatId ? `<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">${escapeXml(customer.vatId)}</ram:ID></ram:SpecifiedTaxRegistration>` : '') +
      '</ram:BuyerTradeParty>' +
      (document.contractNumber ? `<ram:ContractReferencedDocument>${element('IssuerAssignedID', document.contractNumber)}</ram:ContractReferencedDocument>` : '') +
      meterIds.map((id) => `<ram:AdditionalReferencedDocument>${element('IssuerAssignedID', id)}<ram:TypeCode>130</ram:TypeCode></ram:AdditionalReferencedDocument>`).join('') +
      '</ram:ApplicableHeaderTradeAgreement>',
  );
  out.push('<ram:ApplicableHeaderTradeDelivery/>');

  // BG-16 payment instructions: 59 SEPA direct debit, 58 SEPA credit transfer to the seller's IBAN;
  // for a document that credits the customer, 58 to the customer's IBAN, the account "to which
  // payment should be made" (BT-84), or 1 (instrument not defined) when it is not known and the
  // terms (BT-20) say how it is paid out; 97 clearing between partners for a cancellation no money
  // moves for (it clears the invoice it cancels). A mandate accompanies a direct debit only: for
  // the others nothing will be debited.
  const settlement = settlementOf(document);
  const debit = settlement === 'sepa_direct_debit' && payment.method === 'sepa_direct_debit' ? payment : null;
  const paymentMeans = (code: string, account = '') => `<ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>${code}</ram:TypeCode>${account}</ram:SpecifiedTradeSettlementPaymentMeans>`;
  const payeeAccount = (iban: string, holder?: string) => `<ram:PayeePartyCreditorFinancialAccount>${element('IBANID', iban)}${holder ? element('AccountName', holder) : ''}</ram:PayeePartyCreditorFinancialAccount>`;
  const means =
    settlement === 'clearing'
      ? paymentMeans('97')
      : settlement === 'payout'
        ? payment.customerIban
          ? paymentMeans('58', payeeAccount(payment.customerIban))
          : paymentMeans('1')
        : debit
          ? paymentMeans('59', debit.customerIban ? `<ram:PayerPartyDebtorFinancialAccount>${element('IBANID', debit.customerIban)}</ram:PayerPartyDebtorFinancialAccount>` : '')
          : paymentMeans(
              '58',
              seller.bankAccount
                ? payeeAccount(seller.bankAccount.iban, seller.bankAccount.holder) +
                    (seller.bankAccount.bic ? `<ram:PayeeSpecifiedCreditorFinancialInstitution>${element('BICID', seller.bankAccount.bic)}</ram:PayeeSpecifiedCreditorFinancialInstitution>` : '')
                : '',
            );
  out.push(
    '<ram:ApplicableHeaderTradeSettlement>' +
      (debit ? element('CreditorReferenceID', debit.creditorId) : '') +
      element('PaymentReference', document.number) +
      `<ram:InvoiceCurrencyCode>${currency}</ram:InvoiceCurrencyCode>` +
      means +
      breakdown
        .map(
          ({ rate, basis, tax }) =>
            `<ram:ApplicableTradeTax><ram:CalculatedAmount>${amount(tax)}</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode>` +
            `<ram:BasisAmount>${amount(basis)}</ram:BasisAmount><ram:CategoryCode>${categoryOf(rate)}</ram:CategoryCode><ram:RateApplicablePercent>${rate}</ram:RateApplicablePercent></ram:ApplicableTradeTax>`,
        )
        .join('') +
      `<ram:BillingSpecifiedPeriod><ram:StartDateTime>${date102(document.periodStart)}</ram:StartDateTime><ram:EndDateTime>${date102(dayBefore(document.periodEnd))}</ram:EndDateTime></ram:BillingSpecifiedPeriod>` +
      '<ram:SpecifiedTradePaymentTerms>' +
      element('Description', paymentTerms(document)) +
      `<ram:DueDateDateTime>${date102(document.dueDate)}</ram:DueDateDateTime>` +
      (debit ? element('DirectDebitMandateID', debit.mandateReference) : '') +
      '</ram:SpecifiedTradePaymentTerms>' +
      '<ram:SpecifiedTradeSettlementHeaderMonetarySummation>' +
      `<ram:LineTotalAmount>${amount(lineTotal)}</ram:LineTotalAmount>` +
      `<ram:TaxBasisTotalAmount>${amount(lineTotal)}</ram:TaxBasisTotalAmount>` +
      `<ram:TaxTotalAmount currencyID="${currency}">${amount(taxTotal)}</ram:TaxTotalAmount>` +
      `<ram:GrandTotalAmount>${amount(grandTotal)}</ram:GrandTotalAmount>` +
      `<ram:TotalPrepaidAmount>${amount(paid)}</ram:TotalPrepaidAmount>` +
      `<ram:DuePayableAmount>${amount(due)}</ram:DuePayableAmount>` +
      '</ram:SpecifiedTradeSettlementHeaderMonetarySummation>' +
      (document.cancels
        ? `<ram:InvoiceReferencedDocument>${element('IssuerAssignedID', document.cancels.number)}` +
          (document.cancels.issuedAt ? `<ram:FormattedIssueDateTime><qdt:DateTimeString format="102">${document.cancels.issuedAt.replaceAll('-', '')}</qdt:DateTimeString></ram:FormattedIssueDateTime>` : '') +
          '</ram:InvoiceReferencedDocument>'
        : '') +
      '</ram:ApplicableHeaderTradeSettlement>',
  );
  out.push('</rsm:SupplyChainTradeTransaction>');
  out.push('</rsm:CrossIndustryInvoice>');
  return out.join('\n') + '\n';
}
