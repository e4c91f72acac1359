import { describe, expect, it, vi } from 'vitest';
import { defaultDisputeResolution, renderInvoicePdf, type InvoiceDocument, type InvoiceSeller } from '../../../core/billing/invoices/invoice-pdf.js';
import { extractPages } from '../../support/pdf.js';
import { address } from '../../support/invoice-documents.js';

const line = (description: string, netAmount: string): InvoiceDocument['lines'][number] => ({
  description,
  periodStart: '2026-10-01',
  periodEnd: '2026-11-01',
  quantity: '1234.567',
  unit: 'kWh',
  unitPrice: '0.289500',
  taxRate: '19.00',
  netAmount,
});

/** The seller's legal data, none of which these tests are about. */
const sellerDetails: Omit<InvoiceSeller, 'name' | 'address'> = {
  vatId: 'DE123456789',
  taxNumber: null,
  register: null,
  managingDirectors: [],
  contact: { email: null, phone: null, website: null },
  bankAccount: null,
};

const germanInvoice: InvoiceDocument = {
  kind: 'invoice',
  locale: 'de-DE',
  number: 'INV-2026-000001',
  issuedAt: '2026-11-03',
  dueDate: '2026-11-17',
  periodStart: '2026-10-01',
  periodEnd: '2026-11-01',
  currency: 'EUR',
  seller: { name: 'Stadtwerke Musterstadt GmbH', address: address('Hauptstraße 1', '12345', 'Musterstadt'), ...sellerDetails },
  customer: { name: 'Erika Mustermann', number: 'K-1001', address: address('Nebenweg 7', '54321', 'Beispielhausen'), vatId: null, buyerReference: null },
  contractNumber: null,
  productName: null,
  supplyAddress: null,
  template: {
    subject: 'Ihre Stromrechnung',
    introText: 'Sehr geehrte Frau Mustermann, wir berechnen Ihnen folgende Leistungen.',
    closingText: 'Vielen Dank für Ihr Vertrauen.',
    footerText: 'Stadtwerke Musterstadt GmbH · IBAN DE02 1203 0000 0000 2020 51',
  },
  cancels: null,
  lines: [
    line('Arbeitspreis Strom Zählpunkt DE0001234567890000000000000000001', '357.41'),
    line('Grundpreis mit einer sehr langen Beschreibung, die über mehrere Zeilen umbrechen muss, damit nichts abgeschnitten wird', '12345.60'),
  ],
  netTotal: '12703.01',
  taxes: [{ percentage: '19.00', netAmount: '12703.01', taxAmount: '2413.57' }],
  grossTotal: '15116.58',
  prepaymentsTotal: '1000.00',
  prepaymentTaxes: [],
  amountDue: '14116.58',
  payment: { method: 'transfer', customerIban: null },
  meters: [],
  priceComponents: [],
  nextPrepayments: [],
  fuelMix: null,
  cancellation: null,
  disputeResolution: defaultDisputeResolution('de-DE'),
};

const englishCreditNote: InvoiceDocument = {
  ...germanInvoice,
  kind: 'credit_note',
  locale: 'en-GB',
  number: 'CN-2026-000001',
  seller: { name: 'Musterstadt Utilities Ltd', address: address('1 High Street', 'AB1 2CD', 'Exampleton', 'GB'), ...sellerDetails },
  template: { subject: null, introText: 'We credit you the following items.', closingText: 'Kind regards.', footerText: null },
  cancels: { number: 'INV-2026-000001', issuedAt: null, refunded: '0.00', collecting: '0.00', creditPaidOut: '0.00', creditPayingOut: '0.00' },
  lines: [line('Energy charge', '-357.41')],
  netTotal: '-357.41',
  taxes: [{ percentage: '19.00', netAmount: '-357.41', taxAmount: '-67.91' }],
  grossTotal: '-425.32',
  prepaymentsTotal: '0.00',
  amountDue: '-425.32',
  disputeResolution: defaultDisputeResolution('en-GB'),
};

/** pdf.js warns on every standard (non-embedded) font unless it knows where its replacement fonts are. */

describe('invoice PDF', () => {
  it('renders a German invoice with locale-formatted amounts, dates and texts', async () => {
    const buffer = await renderInvoicePdf(germanInvoice);
    expect(buffer.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = (await extractPages(buffer)).join(' ');
    for (const expected of [
      'Rechnung INV-2026-000001',
      'Kundennummer K-1001',
      'Rechnungsdatum 03.11.2026',
      'Fällig am 17.11.2026',
      'Leistungszeitraum 01.10.2026 – 31.10.2026',
      'Ihre Stromrechnung',
      germanInvoice.template.introText!,
      germanInvoice.template.closingText!,
      'IBAN DE02 1203 0000 0000 2020 51',
      'Arbeitspreis Strom Zählpunkt',
      '1.234,567 kWh',
      '0,289500 €',
      '357,41 €',
      '12.345,60 €',
      'Summe netto 12.703,01 €',
      'USt. 19,00 % auf 12.703,01 € 2.413,57 €',
      'Rechnungsbetrag brutto 15.116,58 €',
      'Geleistete Abschlagszahlungen -1.000,00 €',
      'Zu zahlen 14.116,58 €',
    ]) {
      expect(text).toContain(expected);
    }
    // The long description wraps, so its words arrive as several strings.
    expect(text).toMatch(/Grundpreis mit einer sehr langen Beschreibung,.*damit nichts abgeschnitten wird/);
  });

  it('renders an English cancellation invoice referencing the cancelled invoice', async () => {
    const buffer = await renderInvoicePdf(englishCreditNote);
    expect(buffer.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = (await extractPages(buffer)).join(' ');
    for (const expected of [
      'Cancellation invoice CN-2026-000001',
      'Cancels invoice INV-2026-000001',
      'Invoice date 03/11/2026',
      'Supply period 01/10/2026 – 31/10/2026',
      'We credit you the following items.',
      'Kind regards.',
      'Energy charge',
      '1,234.567 kWh',
      '€0.289500',
      'Net total -€357.41',
      'VAT 19.00% on -€357.41 -€67.91',
      'Gross total -€425.32',
      'Prepayments made €0.00',
      'Credit €425.32',
      'Germany', // the customer lives abroad from the seller's point of view
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('Amount due');
  });

  it('flows many lines onto further pages', async () => {
    const lines = Array.from({ length: 80 }, (_, i) => line(`Position ${i + 1} Messlokation`, `${i + 1}.00`));
    const pages = await extractPages(await renderInvoicePdf({ ...germanInvoice, lines }));
    expect(pages.length).toBeGreaterThan(1);
    const text = pages.join(' ');
    for (let i = 1; i <= 80; i++) {
      expect(text).toContain(`Position ${i} Messlokation`);
      expect(text).toContain(`${i},00 €`);
    }
    expect(pages.at(-1)).toContain(`Seite ${pages.length} von ${pages.length}`);
    // The table header is repeated on every page the table continues on.
    const continued = pages.slice(1).filter((page) => page.includes('Messlokation'));
    expect(continued.length).toBeGreaterThan(0);
    for (const page of continued) expect(page).toContain('Beschreibung Zeitraum Menge Einzelpreis USt. Netto');
  });

  it('renders the same document to identical bytes, whatever the clock says', async () => {
    const first = await renderInvoicePdf(germanInvoice);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2031-05-17T13:14:15Z'));
      const second = await renderInvoicePdf(germanInvoice);
      expect(second.equals(first)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
