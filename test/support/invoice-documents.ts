import { defaultDisputeResolution, type InvoiceDocument, type InvoiceLine } from '../../core/billing/invoices/invoice-pdf.js';

/** Invoice documents as the PDF renderer takes them: a typical German invoice and its variants. */
export const address = (line1: string, postCode: string, locality: string, country = 'DE') => ({ line1, line2: null, line3: null, line4: null, locality, postCode, country });

export const line = (description: string, quantity: string, unit: string, unitPrice: string, taxRate: string, netAmount: string): InvoiceLine => ({
  description,
  periodStart: '2026-10-01',
  periodEnd: '2026-11-01',
  quantity,
  unit,
  unitPrice,
  taxRate,
  netAmount,
});

/** October 2026 for a tenant with a flat (register meter) and a heat pump (interval meter); 19 % and 7 % VAT; SEPA direct debit. */
export const typical: InvoiceDocument = {
  kind: 'invoice',
  locale: 'de-DE',
  number: 'INV-2026-000001',
  issuedAt: '2026-11-03',
  dueDate: '2026-11-17',
  periodStart: '2026-10-01',
  periodEnd: '2026-11-01',
  currency: 'EUR',
  seller: {
    name: 'Stadtwerke Musterstadt GmbH',
    address: address('Hauptstraße 1', '12345', 'Musterstadt'),
    vatId: 'DE123456789',
    taxNumber: null,
    register: { court: 'Amtsgericht Musterstadt', number: 'HRB 12345' },
    managingDirectors: ['Dr. Anna Beispiel', 'Max Muster'],
    contact: { email: 'service@sw-musterstadt.de', phone: '0123 456789-0', website: 'www.sw-musterstadt.de' },
    bankAccount: { holder: 'Stadtwerke Musterstadt GmbH', iban: 'DE02120300000000202051', bic: 'BYLADEM1001' },
  },
  customer: { name: 'Erika Mustermann', number: 'K-1001', address: address('Nebenweg 7', '54321', 'Beispielhausen'), vatId: null, buyerReference: null },
  contractNumber: 'V-2026-0042',
  productName: 'Mieterstrom Nebenweg',
  supplyAddress: { ...address('Nebenweg 7', '54321', 'Beispielhausen'), line2: 'Wohnung 3' },
  template: {
    subject: 'Ihre Stromrechnung',
    introText: 'Sehr geehrte Frau Mustermann, wir berechnen Ihnen folgende Leistungen.',
    closingText: 'Vielen Dank für Ihr Vertrauen.',
    footerText: 'Stadtwerke Musterstadt – Energie aus der Region',
  },
  cancels: null,
  lines: [
    line('Arbeitspreis Mieterstrom (Wohnung 3)', '180.000', 'kWh', '0.245000', '19.00', '44.10'),
    line('Arbeitspreis Reststrom (Wohnung 3)', '72.500', 'kWh', '0.312000', '19.00', '22.62'),
    line('Arbeitspreis Wärmepumpe', '410.250', 'kWh', '0.228000', '19.00', '93.54'),
    line('Grundpreis Wohnung 3', '1', 'Monat', '9.900000', '19.00', '9.90'),
    line('Grundpreis Wärmepumpe', '1', 'Monat', '6.500000', '19.00', '6.50'),
    line('Messstellenbetrieb moderne Messeinrichtung', '1', 'Monat', '1.670000', '19.00', '1.67'),
    line('Messstellenbetrieb intelligentes Messsystem', '1', 'Monat', '2.500000', '19.00', '2.50'),
    line('Energieberatung vor Ort', '1', 'Stück', '40.000000', '7.00', '40.00'),
  ],
  netTotal: '220.83',
  taxes: [
    { percentage: '19.00', netAmount: '180.83', taxAmount: '34.36' },
    { percentage: '7.00', netAmount: '40.00', taxAmount: '2.80' },
  ],
  grossTotal: '257.99',
  prepaymentsTotal: '200.00',
  prepaymentTaxes: [{ percentage: '19.00', netAmount: '168.07', taxAmount: '31.93' }],
  amountDue: '57.99',
  payment: { method: 'sepa_direct_debit', mandateReference: 'MREF-K1001-01', creditorId: 'DE98ZZZ09999999999', customerIban: 'DE89370400440532013000' },
  meters: [
    {
      marketLocationId: '51238696781',
      meterNumber: '1ESY1160123456',
      label: 'Wohnung 3',
      readings: { startDate: '2026-10-01', start: '12345.6', endDate: '2026-11-01', end: '12598.1' },
      consumption: '252.500',
      method: 'measured',
      previousYearConsumption: '268.300',
    },
    {
      marketLocationId: '51238696792',
      meterNumber: '1EMH0012345678',
      label: 'Wärmepumpe',
      readings: null,
      consumption: '410.250',
      method: 'measured',
      previousYearConsumption: '395.000',
    },
  ],
  priceComponents: [
    { category: 'energy', netAmount: '92.01' },
    { category: 'grid_fee', netAmount: '52.30' },
    { category: 'metering', netAmount: '4.17' },
    { category: 'concession_fee', netAmount: '11.21' },
    { category: 'levies', netAmount: '7.39' },
    { category: 'electricity_tax', netAmount: '13.75' },
    { category: 'other', netAmount: '40.00' },
  ],
  nextPrepayments: [
    { dueDate: '2026-12-01', amount: '75.00' },
    { dueDate: '2027-01-01', amount: '75.00' },
    { dueDate: '2027-02-01', amount: '80.00' },
  ],
  fuelMix: {
    year: 2025,
    sources: [
      { source: 'nuclear', percentage: '0.0' },
      { source: 'coal', percentage: '18.4' },
      { source: 'natural_gas', percentage: '12.1' },
      { source: 'other_fossil', percentage: '1.5' },
      { source: 'renewable_eeg', percentage: '41.0' },
      { source: 'renewable_other', percentage: '27.0' },
    ],
    co2: '198',
    radioactiveWaste: '0.0001',
  },
  cancellation: { noticeBy: '2026-11-30', endsOn: '2027-01-01', noticePeriod: { value: 1, unit: 'month' } },
  disputeResolution: defaultDisputeResolution('de-DE'),
};

/** The cancellation of the typical invoice, which had been debited: every amount negated, what was paid goes back to the debited account. */
export const stornorechnung: InvoiceDocument = {
  ...typical,
  kind: 'credit_note',
  number: 'CN-2026-000001',
  issuedAt: '2026-11-20',
  dueDate: '2026-12-04',
  template: { subject: 'Stornierung Ihrer Stromrechnung', introText: null, closingText: null, footerText: null },
  cancels: { number: 'INV-2026-000001', issuedAt: '2026-11-03', refunded: '57.99', collecting: '0.00', creditPaidOut: '0.00', creditPayingOut: '0.00' },
  lines: typical.lines.map((item) => ({ ...item, quantity: `-${item.quantity}`, netAmount: `-${item.netAmount}` })),
  netTotal: '-220.83',
  taxes: typical.taxes.map((tax) => ({ ...tax, netAmount: `-${tax.netAmount}`, taxAmount: `-${tax.taxAmount}` })),
  grossTotal: '-257.99',
  prepaymentsTotal: '-200.00',
  prepaymentTaxes: [{ percentage: '19.00', netAmount: '-168.07', taxAmount: '-31.93' }],
  amountDue: '-57.99',
};

export const english: InvoiceDocument = {
  ...typical,
  locale: 'en-GB',
  seller: { ...typical.seller, name: 'Musterstadt Utilities Ltd', vatId: null, taxNumber: '12/345/67890' },
  customer: { ...typical.customer, name: 'Jane Doe' },
  template: { subject: 'Your electricity bill', introText: 'Dear Ms Doe, please find your bill below.', closingText: 'Kind regards.', footerText: null },
  lines: [...typical.lines.slice(0, 7), line('Energy advice', '1234.567', 'kWh', '0.032400', '7.00', '40.00')],
  meters: [
    { ...typical.meters[0]!, method: 'estimated' },
    { ...typical.meters[1]!, marketLocationId: null, label: null, method: 'calculated' },
  ],
  fuelMix: { ...typical.fuelMix!, co2: null },
  cancellation: { noticeBy: '2026-11-30', endsOn: '2027-01-01', noticePeriod: { value: 4, unit: 'week' } },
  disputeResolution: defaultDisputeResolution('en-GB'),
};

/** No previous-year data, no fuel mix, no termination date, paid by transfer. */
export const transfer: InvoiceDocument = {
  ...typical,
  payment: { method: 'transfer', customerIban: null },
  meters: typical.meters.map((meter) => ({ ...meter, previousYearConsumption: null })),
  fuelMix: null,
  cancellation: null,
  nextPrepayments: [],
};

/** The prepayments exceeded the bill; nobody knows the tenant's account. */
export const credit: InvoiceDocument = {
  ...transfer,
  prepaymentsTotal: '300.00',
  prepaymentTaxes: [{ percentage: '19.00', netAmount: '252.10', taxAmount: '47.90' }],
  amountDue: '-42.01',
};

/**
 * The typical invoice as the `index`th of a bill run: its own number, customer, contract, meters,
 * quantities and amounts (from a generator seeded by the index), so that documents share what a
 * run's invoices share (labels, seller, template) and no more. Amounts need not add up: the
 * renderer prints what it is given.
 */
export function billedInvoice(index: number): InvoiceDocument {
  let seed = index + 1;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const amount = () => (next() * 300).toFixed(2);
  const quantity = () => (next() * 900).toFixed(3);
  return {
    ...typical,
    number: `INV-2026-${String(index + 1).padStart(6, '0')}`,
    customer: { ...typical.customer, name: `${['Erika', 'Jürgen', 'Ayşe', 'Thi Lan'][index % 4]} ${['Meier', 'Schulz', 'Öztürk', 'Nguyen'][index % 3]}`, number: `K-${1000 + index}`, address: address(`Nebenweg ${(index % 97) + 1}`, String(10_000 + (index % 89_999)), 'Beispielhausen') },
    contractNumber: `V-2026-${index + 1}`,
    lines: typical.lines.map((item) => ({ ...item, quantity: quantity(), netAmount: amount() })),
    netTotal: amount(),
    taxes: typical.taxes.map((tax) => ({ ...tax, netAmount: amount(), taxAmount: amount() })),
    grossTotal: amount(),
    prepaymentsTotal: amount(),
    amountDue: amount(),
    meters: typical.meters.map((meter, i) => ({
      ...meter,
      meterNumber: `1ESY${1_160_000_000 + index * 2 + i}`,
      consumption: quantity(),
      previousYearConsumption: quantity(),
      readings: meter.readings && { ...meter.readings, start: quantity(), end: quantity() },
    })),
    priceComponents: typical.priceComponents.map((component) => ({ ...component, netAmount: amount() })),
    nextPrepayments: typical.nextPrepayments.map((prepayment) => ({ ...prepayment, amount: amount() })),
  };
}
