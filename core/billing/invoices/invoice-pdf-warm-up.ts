import { defaultDisputeResolution } from './invoice-pdf-labels.js';
import { FUEL_SOURCES, type InvoiceDocument } from './invoice-pdf-model.js';
import type { PdfLayout } from './invoice-pdf-layout.js';
import { layOutInvoice, renderInvoicePdf } from './invoice-pdf.js';

const address = (line1: string, postCode: string, locality: string) => ({ line1, line2: null, line3: null, line4: null, locality, postCode, country: 'DE' });

/**
 * A fictitious invoice of a fictitious seller, the `index`th of four kinds in turn: a German invoice
 * paid by direct debit, an English one that credits the customer, a German credit note that cancels
 * an invoice, and a German one with nothing due and neither fuel mix nor cancellation terms. Its
 * quantities and amounts come from a generator seeded by the index, so that numbers vary as in a
 * bill run; they need not add up, as the renderer prints what it is given.
 */
export function specimenInvoice(index: number): InvoiceDocument {
  // A multiplicative hash spreads neighbouring indexes' seeds apart: Lehmer's generator would start
  // them with nearly the same small numbers.
  let seed = 1 + ((index * 2_654_435_761) % 2_147_483_646);
  const next = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
  const variant = index % 4;
  const locale = variant === 1 ? 'en-GB' : 'de-DE';
  const sign = variant === 2 ? '-' : '';
  const amount = () => `${sign}${(next() * 400).toFixed(2)}`;
  const quantity = () => `${sign}${(next() * 1_200).toFixed(3)}`;
  const line = (description: string, unit: string, unitPrice: string, taxRate: string) => ({
    description,
    periodStart: '2026-01-01',
    periodEnd: '2026-02-01',
    quantity: unit === 'kWh' ? quantity() : `${sign}1`,
    unit,
    unitPrice,
    taxRate,
    netAmount: amount(),
  });
  const customerIban = `DE${String(10 + (index % 89))}500105170${String(index).padStart(9, '0').slice(-9)}`;
  const amountDue = variant === 3 ? '0.00' : variant === 1 ? `-${(1 + next() * 90).toFixed(2)}` : `${sign}${(1 + next() * 400).toFixed(2)}`;
  return {
    kind: variant === 2 ? 'credit_note' : 'invoice',
    locale,
    number: `${variant === 2 ? 'GS' : 'RE'}-2026-${String(index + 1).padStart(6, '0')}`,
    issuedAt: '2026-02-04',
    dueDate: '2026-02-18',
    periodStart: '2026-01-01',
    periodEnd: '2026-02-01',
    currency: 'EUR',
    seller: {
      name: 'Beispiel Quartiersstrom eG',
      address: address('Am Solarpark 12', '04109', 'Leipzig'),
      vatId: 'DE999999999',
      taxNumber: '231/123/45678',
      register: { court: 'Amtsgericht Leipzig', number: 'GnR 999' },
      managingDirectors: ['Jana Vorstand', 'Olaf Vorstand'],
      contact: { email: 'kontakt@quartiersstrom.example', phone: '0341 000000', website: 'quartiersstrom.example' },
      bankAccount: { holder: 'Beispiel Quartiersstrom eG', iban: 'DE75512108001245126199', bic: 'SOGEDEFFXXX' },
    },
    customer: {
      name: `${['Lena', 'Tomasz', 'Zeynep', 'Bjørn'][index % 4]} ${['Krüger', 'Nowak', 'Yılmaz', 'Hansen', 'Weiß'][index % 5]}`,
      number: `M-${20_000 + index}`,
      address: address(`Sonnenallee ${(index % 180) + 1}`, String(10_000 + ((index * 37) % 89_999)), 'Leipzig'),
      vatId: null,
      buyerReference: null,
    },
    contractNumber: `L-2026-${index + 1}`,
    productName: locale === 'en-GB' ? 'Neighbourhood power' : 'Quartiersstrom Sonnenallee',
    supplyAddress: variant === 0 ? { ...address('Sonnenallee 1', '04109', 'Leipzig'), line2: `Wohnung ${(index % 40) + 1}` } : null,
    template: {
      subject: locale === 'en-GB' ? 'Your electricity bill' : 'Ihre Abrechnung',
      introText: variant === 3 ? null : locale === 'en-GB' ? 'Please find your bill for January below.' : 'Guten Tag, hier ist Ihre Abrechnung für Januar.',
      closingText: locale === 'en-GB' ? 'Thank you.' : 'Danke für Ihr Vertrauen.',
      footerText: variant === 3 ? null : 'Beispiel Quartiersstrom – Strom vom eigenen Dach',
    },
    cancels: variant === 2 ? { number: `RE-2026-${String(index).padStart(6, '0')}`, issuedAt: '2026-02-02', refunded: '0.00', collecting: '0.00', creditPaidOut: '0.00', creditPayingOut: '0.00' } : null,
    lines: [
      line('Arbeitspreis Solarstrom', 'kWh', '0.231000', '19.00'),
      line('Arbeitspreis Netzstrom', 'kWh', '0.329000', '19.00'),
      line('Grundpreis', locale === 'en-GB' ? 'month' : 'Monat', '8.500000', '19.00'),
      line('Messstellenbetrieb', locale === 'en-GB' ? 'month' : 'Monat', '2.000000', '19.00'),
      line('Ladekarte', 'Stück', '12.000000', '7.00'),
    ],
    netTotal: amount(),
    taxes: [
      { percentage: '19.00', netAmount: amount(), taxAmount: amount() },
      { percentage: '7.00', netAmount: amount(), taxAmount: amount() },
    ],
    grossTotal: amount(),
    prepaymentsTotal: amount(),
    prepaymentTaxes: [{ percentage: '19.00', netAmount: amount(), taxAmount: amount() }],
    amountDue,
    payment: variant === 0 ? { method: 'sepa_direct_debit', mandateReference: `MANDAT-${index}`, creditorId: 'DE98ZZZ09999999999', customerIban } : { method: 'transfer', customerIban: variant === 1 ? customerIban : null },
    meters: [
      {
        marketLocationId: `5${String(1_000_000_000 + index).slice(-10)}`,
        meterNumber: `1EBZ${1_000_000_000 + index}`,
        label: variant === 1 ? null : 'Wohnung',
        readings: { startDate: '2026-01-01', start: (next() * 40_000).toFixed(1), endDate: '2026-02-01', end: (next() * 40_000).toFixed(1) },
        consumption: quantity(),
        method: variant === 1 ? 'estimated' : 'measured',
        previousYearConsumption: variant === 3 ? null : quantity(),
      },
      { marketLocationId: null, meterNumber: `1LOG${2_000_000_000 + index}`, label: 'Wallbox', readings: null, consumption: quantity(), method: 'calculated', previousYearConsumption: variant === 3 ? null : quantity() },
    ],
    priceComponents: (['energy', 'grid_fee', 'metering', 'levies', 'electricity_tax'] as const).map((category) => ({ category, netAmount: amount() })),
    nextPrepayments: variant === 3 ? [] : ['2026-03-01', '2026-04-01', '2026-05-01'].map((dueDate) => ({ dueDate, amount: (next() * 120).toFixed(2) })),
    fuelMix: variant === 3 ? null : { year: 2025, sources: FUEL_SOURCES.map((source, i) => ({ source, percentage: (i === 0 ? 0 : next() * 30).toFixed(1) })), co2: (next() * 400).toFixed(0), radioactiveWaste: '0.0002' },
    cancellation: variant === 3 ? null : { noticeBy: '2026-02-28', endsOn: '2026-04-01', noticePeriod: variant === 1 ? { value: 4, unit: 'week' } : { value: 1, unit: 'month' } },
    disputeResolution: defaultDisputeResolution(locale),
  };
}

/**
 * Renders a document in a task of its own, as a render thread's messages come: the ticks a
 * document's stream schedules run before the next document, and it can be collected. A loop of
 * awaits alone never leaves the microtask queue, so those ticks would keep every document it
 * rendered alive (55 MB of heap per 500 bill-run invoices, after a full collection).
 */
export async function renderInOwnTask(document: InvoiceDocument, render: (document: InvoiceDocument) => Promise<Buffer> = renderInvoicePdf): Promise<Buffer> {
  const pdf = await render(document);
  await new Promise<void>((resolve) => setImmediate(resolve));
  return pdf;
}

/**
 * Renders up to `documents` specimen invoices and forgets them, fewer if `stop` says so before one.
 * A fresh renderer compiles its code and shapes its labels' words on its first documents, which cost
 * several times what a warm one's do (measured for a bill run's invoices: the first 25 of a fresh
 * thread 27–39 ms of CPU each, from the hundredth on mostly 7–13), and V8 keeps compiling for some
 * hundred documents more: a render thread does this before it reports ready, so that a worker's
 * first bill run does not pay for it. The specimen shares no seller, customer or template text with
 * real invoices, only the labels and the code.
 */
export async function warmUpRenderer(
  documents: number,
  render: (document: InvoiceDocument) => Promise<Buffer> = renderInvoicePdf,
  stop: () => boolean = () => false,
): Promise<void> {
  for (let index = 0; index < documents && !stop(); index++) await renderInOwnTask(specimenInvoice(index), render);
}

/**
 * The specimens' layouts `keepSpecimens` keeps. V8 compiles the renderer's code for the hidden
 * classes (maps) of its objects: a document, its pages, fonts and subsets, with the methods each
 * document's get. A map lives only as long as an object has it, and between two documents none
 * does: a full collection then drops the maps and, with them, the code compiled for them, which V8
 * compiles again for the next document. During a bill run a render thread collected fully every 70
 * to 100 documents while V8 still shrank idle threads' heaps (once in some 500 documents since, see
 * keepThreadHeaps in pdf-render-pool.ts), and compiling was over half of what V8's helper threads
 * did (measured: with a full collection after every 70th of 1,000 bill-run invoices, 1,120
 * compilations, 363 with these specimens kept, 77 without those collections).
 */
const kept: PdfLayout[] = [];

/**
 * Renders one specimen invoice of each kind and keeps its layout, and so the maps of everything a
 * document is made of, alive for the life of the thread (once: later calls keep nothing more).
 */
export async function keepSpecimens(): Promise<void> {
  if (kept.length > 0) return;
  for (let kind = 0; kind < 4; kind++) {
    const { layout, pdf } = layOutInvoice(specimenInvoice(kind));
    await pdf;
    kept.push(layout);
  }
}
