import type { AccountRepository } from '../../accounts/accounts.repository.js';
import type { ContractMeterRepository, ContractRepository } from '../../contracts/contracts.repository.js';
import type { CustomerRepository } from '../../customers/customers.repository.js';
import type { Account } from '../../domain/accounts/account.js';
import { disputeResolutionTextOf } from '../../domain/accounts/seller-details.js';
import type { Address } from '../../domain/addresses/address.js';
import type { Invoice, LineItem } from '../../domain/billing/invoice.js';
import { formatCents, formatDecimal } from '../../domain/billing/money.js';
import { prepaymentTaxes } from '../../domain/billing/prepayment-tax.js';
import { PRICE_COMPONENT_CATEGORIES, type PriceComponentCategory } from '../../domain/billing/price.js';
import { isConsumer, nextCancellation } from '../../domain/contracts/cancellation.js';
import type { Contract, ContractMeter } from '../../domain/contracts/contract.js';
import { parseTermDuration } from '../../domain/contracts/term-duration.js';
import { customerDisplayName, type Customer, type InvoiceFormat } from '../../domain/customers/customer.js';
import { registerAt } from '../../domain/measurements/aggregation.js';
import { measuresIntervals } from '../../domain/measurements/bucket-energy.js';
import { isVirtual, type Meter } from '../../domain/meters/meter.js';
import type { PaymentMethod } from '../../domain/payments/payment-method.js';
import type { FuelMix } from '../../domain/products/electricity-product.js';
import { inForce } from '../../domain/periods.js';
import { calendarDateOf, startOfDay } from '../../domain/time/calendar-date.js';
import { MeasuredEnergy } from '../../measurements/measured-energy.js';
import type { MeasurementRepository } from '../../measurements/measurements.repository.js';
import type { MeterRepository } from '../../meters/meters.repository.js';
import type { PaymentMethodRepository, PaymentRepository, UpcomingPrepayment } from '../../payments/payments.repository.js';
import type { ProductRepository } from '../../products/products.service.js';
import type { SiteRepository } from '../../sites/sites.repository.js';
import type { PriceComponentRepository } from '../catalogue/price-catalogue.repository.js';
import type { TemplateRepository } from '../catalogue/templates.service.js';
import { shiftYears } from './invoice-pdf-format.js';
import type { PdfRenderer } from './pdf-render-pool.js';
import { labels } from './invoice-pdf-labels.js';
import {
  type InvoicePdfEInvoice,
  type InvoiceCancellationTerms,
  type InvoiceDocument,
  type InvoiceFuelMix,
  type InvoiceMeter,
  type InvoicePayment,
  type InvoiceSeller,
} from './invoice-pdf.js';
import { writeCiiProfiles, type EInvoiceProfile } from './e-invoice/cii.js';
import { eInvoiceViolations } from './e-invoice/e-invoice-rules.js';
import { cancelledInvoiceOf } from './cancelled-invoice.js';
import { presentInvoice, presentLineItem } from './invoice-presenter.js';
import type { InvoiceRepository, LineItemRepository, StoredEInvoice } from './invoices.repository.js';

export interface InvoiceDocumentsDependencies {
  accounts: AccountRepository;
  customers: CustomerRepository;
  templates: TemplateRepository;
  invoices: InvoiceRepository;
  lineItems: LineItemRepository;
  contracts: ContractRepository;
  contractMeters: ContractMeterRepository;
  meters: MeterRepository;
  measurements: MeasurementRepository;
  products: ProductRepository;
  sites: SiteRepository;
  priceComponents: PriceComponentRepository;
  paymentMethods: PaymentMethodRepository;
  payments: PaymentRepository;
  renderer: PdfRenderer;
}

/** How many of the next planned prepayments an invoice lists. */
export const NEXT_PREPAYMENTS = 12;

/** Invoices read and assembled at a time: the first PDFs render while the rest are read. */
export const DOCUMENTS_PER_ROUND = 100;

const earlier = (a: string, b: string) => (a < b ? a : b);
const later = (a: string, b: string) => (a > b ? a : b);

/** Wh as kWh with three decimals, exactly. */
const kwh = (wh: number) => formatDecimal(BigInt(Math.round(wh)), 3);

/** A non-negative number as a plain decimal string ("0.0001", never "1e-4"). */
function decimalText(value: number | null | undefined): string | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  const text = String(value);
  return /e/i.test(text) ? value.toFixed(20).replace(/\.?0+$/, '') : text;
}

const normalised = (value: string | null) => (value ?? '').trim().replace(/\s+/g, ' ').toLowerCase();

function sameAddress(a: Address, b: Address): boolean {
  return (['line1', 'line2', 'line3', 'line4', 'locality', 'postCode', 'country'] as const).every((key) => normalised(a[key]) === normalised(b[key]));
}

function sellerOf(account: Account): InvoiceSeller {
  const { registerCourt, registerNumber, bankAccount, contact } = account;
  return {
    name: account.companyName,
    address: account.address,
    vatId: account.vatId,
    taxNumber: account.taxNumber,
    register: registerCourt && registerNumber ? { court: registerCourt, number: registerNumber } : null,
    managingDirectors: [...account.managingDirectors],
    contact: { email: contact.email, phone: contact.phone, website: contact.website },
    bankAccount: bankAccount ? { holder: bankAccount.accountHolder ?? account.companyName, iban: bankAccount.iban, bic: bankAccount.bic } : null,
  };
}

/**
 * The customer's default payment method: a SEPA direct debit with its mandate (when the account has
 * a creditor id to collect with), otherwise a transfer; credits go to the default method's IBAN, or
 * to any IBAN the customer gave.
 */
function paymentOf(account: Account, methods: readonly PaymentMethod[]): InvoicePayment {
  const preferred = methods.find((method) => method.isDefault);
  if (preferred?.type === 'sepa_direct_debit' && preferred.mandateReference && account.sepaCreditorId) {
    return { method: 'sepa_direct_debit', mandateReference: preferred.mandateReference, creditorId: account.sepaCreditorId, customerIban: preferred.iban };
  }
  return { method: 'transfer', customerIban: preferred?.iban ?? methods.find((method) => method.iban)?.iban ?? null };
}

/** A notice period as printed: weeks (PnW), days (PnD) or months (years count as 12); null when it mixes months and days. */
function noticePeriodOf(value: string): InvoiceCancellationTerms['noticePeriod'] | null {
  const duration = parseTermDuration(value);
  if (!duration) return null;
  if (duration.months > 0) return duration.days === 0 ? { value: duration.months, unit: 'month' } : null;
  return value.endsWith('W') ? { value: duration.days / 7, unit: 'week' } : { value: duration.days, unit: 'day' };
}

function cancellationOf(contract: Contract, customer: Customer, issueDate: string): InvoiceCancellationTerms | null {
  const next = nextCancellation(contract, isConsumer(customer), issueDate);
  if (!next || next.noticeBy === null || contract.noticePeriod === null) return null;
  const noticePeriod = noticePeriodOf(contract.noticePeriod);
  return noticePeriod && { noticeBy: next.noticeBy, endsOn: next.endsOn, noticePeriod };
}

function fuelMixOf(mix: FuelMix | null): InvoiceFuelMix | null {
  if (!mix) return null;
  return {
    year: mix.year,
    sources: mix.sources.map(({ source, percentage }) => ({ source, percentage: decimalText(percentage) ?? '0' })),
    co2: decimalText(mix.co2GramsPerKwh),
    radioactiveWaste: decimalText(mix.radioactiveWasteMgPerKwh),
  };
}

/** A line as printed: its unit in the document's language ("Monat", "Monate"; kWh stays). */
function invoiceLine(line: LineItem, locale: InvoiceDocument['locale']): InvoiceDocument['lines'][number] {
  const view = presentLineItem(line);
  if (line.unit !== 'month') return view;
  const one = line.quantity === 10n ** BigInt(line.quantityScale) || line.quantity === -(10n ** BigInt(line.quantityScale));
  return { ...view, unit: labels[locale].units.month[one ? 0 : 1] };
}

/** Net amounts of the lines per category, every category that occurs, in the order of PRICE_COMPONENT_CATEGORIES. */
function priceComponentsOf(lines: readonly LineItem[], categories: ReadonlyMap<string, PriceComponentCategory>): InvoiceDocument['priceComponents'] {
  const sums = new Map<PriceComponentCategory, bigint>();
  for (const line of lines) {
    const category = categories.get(line.priceComponentId);
    if (category) sums.set(category, (sums.get(category) ?? 0n) + line.netAmount);
  }
  return PRICE_COMPONENT_CATEGORIES.flatMap((category) => (sums.has(category) ? [{ category, netAmount: formatCents(sums.get(category)!) }] : []));
}

/** A meter of an invoice over the days it was billed: [from, to) as local dates and instants, and a year earlier. */
interface MeterWindow {
  meter: Meter;
  from: string;
  to: string;
  start: number;
  end: number;
  previousStart: number;
  previousEnd: number;
}

/** The contract's meters (`assignments` are the contract's) in force during the invoice's period clipped to the contract, each over the days assigned. */
function meterWindows(invoice: Invoice, contract: Contract, assignments: readonly ContractMeter[], meters: ReadonlyMap<string, Meter>, timezone: string): MeterWindow[] {
  const from = later(invoice.periodStart, contract.startDate);
  const to = contract.endDate === null ? invoice.periodEnd : earlier(invoice.periodEnd, contract.endDate);
  if (from >= to) return [];
  const spans = new Map<string, { from: string; to: string }>();
  for (const assignment of assignments) {
    if (!inForce(assignment, from, to)) continue;
    const span = { from: later(from, assignment.startDate), to: assignment.endDate === null ? to : earlier(to, assignment.endDate) };
    const known = spans.get(assignment.meterId);
    spans.set(assignment.meterId, known ? { from: earlier(known.from, span.from), to: later(known.to, span.to) } : span);
  }
  const at = (day: string) => startOfDay(day, timezone).getTime();
  return [...spans]
    .flatMap(([meterId, span]) => {
      const meter = meters.get(meterId);
      if (!meter) return [];
      return [{ meter, ...span, start: at(span.from), end: at(span.to), previousStart: at(shiftYears(span.from, -1)), previousEnd: at(shiftYears(span.to, -1)) }];
    })
    .sort((a, b) => a.meter.identifier.localeCompare(b.meter.identifier) || a.meter.id.localeCompare(b.meter.id));
}

/**
 * A meter's line of the document: consumption from the stored measurements as the aggregated
 * measurements compute it, register readings at the window's bounds, and the same window a year
 * earlier when every quarter hour of it is known.
 */
function invoiceMeter(window: MeterWindow, current: MeasuredEnergy, previous: MeasuredEnergy): InvoiceMeter {
  const { meter } = window;
  const [energy] = current.energy(meter, [{ start: window.start, end: window.end }]);
  const [earlierEnergy] = previous.energy(meter, [{ start: window.previousStart, end: window.previousEnd }]);
  const virtual = isVirtual(meter);
  const register = !virtual && !measuresIntervals(meter.measuring);
  const points = current.points(meter.id);
  const start = register ? registerAt(points, window.start, 0) : null;
  const end = register ? registerAt(points, window.end, 0) : null;
  return {
    marketLocationId: meter.marketLocationId,
    meterNumber: meter.identifier,
    label: null,
    readings: start !== null && end !== null ? { startDate: window.from, start: kwh(start), endDate: window.to, end: kwh(end) } : null,
    consumption: kwh(energy?.wh ?? 0),
    method: virtual ? 'calculated' : 'measured',
    previousYearConsumption: earlierEnergy?.complete ? kwh(earlierEnergy.wh) : null,
  };
}

/**
 * What the stored PDF carries besides the invoice, by the customer's invoice format: `facturx`
 * embeds the EN 16931 XML (a Factur-X hybrid), `xrechnung` marks the PDF as the visualisation of the
 * XML, which is the invoice (so there are never two invoices, §14c UStG). An e-invoice the rules
 * refuse (the German BR-DE rules: missing seller contact, post codes, payment data) leaves a plain PDF;
 * `GET /v1/invoices/{id}/e-invoice` names the rules.
 */
function pdfEInvoiceOf(format: InvoiceFormat, eInvoices: ReadonlyMap<EInvoiceProfile, string> | null): InvoicePdfEInvoice | undefined {
  if (format === 'pdf' || !eInvoices) return undefined;
  return format === 'facturx' ? { format, xml: eInvoices.get('en16931')! } : { format, xml: eInvoices.get('xrechnung')! };
}

/**
 * The PDFs of issued invoices and credit notes: each assembled from what the invoice stores (its
 * lines, customer, template and the account) and the contract's master data and measurements,
 * rendered once after the issuing transaction commits, so that the counter row is never held while
 * rendering; stored, never rendered again. A batch of invoices is read with a fixed number of
 * statements, however many invoices, contracts and meters it has.
 */
export class InvoiceDocuments {
  constructor(private readonly deps: InvoiceDocumentsDependencies) {}

  /** Gets the renderer ready for documents that are about to come (PdfRenderer.prepare). */
  prepare(): Promise<void> {
    return this.deps.renderer.prepare();
  }

  /**
   * Renders and stores the PDF of every issued invoice among `ids`, or of the run, that has none,
   * and with it the e-invoice of each profile (when the rules accept it); answers how many. The
   * invoices are assembled DOCUMENTS_PER_ROUND at a time, each round's PDFs rendering (on the
   * pool's threads) and being stored while the next round is read and assembled.
   */
  async renderMissing(accountId: string, filter: { runId?: string; ids?: readonly string[] }, limit = 100): Promise<number> {
    const invoices = await this.deps.invoices.withoutPdf(accountId, filter, limit);
    const stored: Promise<void>[] = [];
    try {
      for (let first = 0; first < invoices.length; first += DOCUMENTS_PER_ROUND) {
        const storing = this.renderAndStore(accountId, await this.documents(accountId, invoices.slice(first, first + DOCUMENTS_PER_ROUND)));
        // Awaited below: a failure while the next round is assembled must not be an unhandled rejection.
        storing.catch(() => undefined);
        stored.push(storing);
      }
    } finally {
      await Promise.allSettled(stored);
    }
    await Promise.all(stored);
    return invoices.length;
  }

  private async renderAndStore(accountId: string, documents: ReadonlyArray<[Invoice, InvoiceDocument, Customer]>): Promise<void> {
    // Each document's e-invoices are written once: stored, and the one its customer's format asks
    // for embedded in (or visualised by) the PDF. The PDFs render on the pool's threads while this
    // thread writes the next document's.
    const eInvoices: StoredEInvoice[] = [];
    const rendering: Promise<{ invoiceId: string; content: Buffer }>[] = [];
    for (const [invoice, document, customer] of documents) {
      const written = eInvoiceViolations(document).length === 0 ? writeCiiProfiles(document) : null;
      for (const [profile, xml] of written ?? []) eInvoices.push({ invoiceId: invoice.id, profile, xml });
      const pdf = this.deps.renderer.render(document, pdfEInvoiceOf(customer.invoiceFormat, written)).then((content) => ({ invoiceId: invoice.id, content }));
      // Awaited below: a failure while later documents are written must not be an unhandled rejection.
      pdf.catch(() => undefined);
      rendering.push(pdf);
    }
    const rendered = await Promise.all(rendering);
    // The e-invoices first: an invoice counts as rendered once its PDF is stored (withoutPdf), so a
    // crash in between writes both again on the next attempt (both inserts keep what is stored).
    await this.deps.invoices.saveEInvoices(accountId, eInvoices);
    await this.deps.invoices.savePdfs(accountId, rendered);
  }

  /** The documents of the issued invoices among `ids` (drafts are left out), assembled like the batch's PDFs. */
  async documentsOf(accountId: string, ids: readonly string[]): Promise<Array<[Invoice, InvoiceDocument]>> {
    const invoices = (await this.deps.invoices.findByIds(accountId, [...ids])).filter((invoice) => invoice.number !== null && invoice.issuedAt !== null);
    return invoices.length === 0 ? [] : (await this.documents(accountId, invoices)).map(([invoice, document]) => [invoice, document]);
  }

  private async documents(accountId: string, invoices: readonly Invoice[]): Promise<Array<[Invoice, InvoiceDocument, Customer]>> {
    const { deps } = this;
    const unique = <T>(values: T[]) => [...new Set(values)];
    const byId = <T extends { id: string }>(items: readonly T[]) => new Map(items.map((item) => [item.id, item]));
    const account = (await deps.accounts.findAccount(accountId))!;
    const { timezone } = account;
    const issueDates = new Map(invoices.map((invoice) => [invoice.id, calendarDateOf(invoice.issuedAt!, timezone)]));
    const customerIds = unique(invoices.map((i) => i.customerId));
    const contractIds = unique(invoices.map((i) => i.contractId));

    const customers = byId(await deps.customers.readByIds(accountId, customerIds));
    const templates = byId(await deps.templates.findByIds(accountId, unique(invoices.map((i) => i.templateId))));
    const cancelled = byId(await deps.invoices.findByIds(accountId, invoices.flatMap((i) => (i.cancelsInvoiceId ? [i.cancelsInvoiceId] : []))));
    const cancelledPayments = cancelled.size > 0 ? await deps.payments.findByInvoiceIds(accountId, [...cancelled.keys()]) : [];
    const lines = Map.groupBy(await deps.lineItems.findByInvoiceIds(accountId, invoices.map((i) => i.id)), (line) => line.invoiceId);
    const contracts = byId(await deps.contracts.readByIds(accountId, contractIds));
    const products = byId(await deps.products.findByIds(accountId, unique([...contracts.values()].map((c) => c.electricityProductId))));
    const sites = byId(await deps.sites.findByIds(accountId, unique([...contracts.values()].map((c) => c.siteId))));
    const components = await deps.priceComponents.findByIds(accountId, unique([...lines.values()].flat().map((line) => line.priceComponentId)));
    const categories = new Map(components.map((component) => [component.id, component.category]));
    const methods = Map.groupBy(await deps.paymentMethods.readByCustomerIds(accountId, customerIds), (method) => method.customerId);
    const upcoming = Map.groupBy(
      await deps.payments.upcomingPrepayments(accountId, invoices.map((i) => ({ contractId: i.contractId, after: issueDates.get(i.id)! })), NEXT_PREPAYMENTS),
      (prepayment: UpcomingPrepayment) => `${prepayment.contractId}/${prepayment.after}`,
    );

    // Meters and their measurements: one read of this period's and one of a year earlier for the whole batch.
    const assignments = await deps.contractMeters.findByContractIds(accountId, contractIds);
    const assignmentsOf = Map.groupBy(assignments, (assignment) => assignment.contractId);
    const meters = byId(await deps.meters.readByIds(accountId, unique(assignments.map((a) => a.meterId))));
    const windows = new Map(
      invoices.map((invoice) => {
        const contract = contracts.get(invoice.contractId);
        return [invoice.id, contract ? meterWindows(invoice, contract, assignmentsOf.get(contract.id) ?? [], meters, timezone) : []];
      }),
    );
    const all = [...windows.values()].flat();
    const current = await MeasuredEnergy.read(deps.measurements, accountId, all);
    const previous = await MeasuredEnergy.read(deps.measurements, accountId, all.map((w) => ({ meter: w.meter, start: w.previousStart, end: w.previousEnd })));

    const seller = sellerOf(account);
    return invoices.map((invoice) => {
      const view = presentInvoice(invoice);
      const issueDate = issueDates.get(invoice.id)!;
      const customer = customers.get(invoice.customerId)!;
      const template = templates.get(invoice.templateId)!;
      const contract = contracts.get(invoice.contractId);
      const site = contract && sites.get(contract.siteId);
      const invoiceLines = lines.get(invoice.id) ?? [];
      const prepaymentTax = prepaymentTaxes(
        invoice.prepaymentsTotal,
        invoice.taxes.map((tax) => ({ percentage: tax.percentage, gross: tax.netAmount + tax.taxAmount })),
      );
      return [
        invoice,
        {
          kind: invoice.kind,
          locale: template.locale,
          number: invoice.number!,
          issuedAt: issueDate,
          dueDate: invoice.dueDate!,
          periodStart: invoice.periodStart,
          periodEnd: invoice.periodEnd,
          currency: account.currency,
          seller,
          customer: { name: customerDisplayName(customer), number: customer.number, address: customer.address, vatId: customer.vatId, buyerReference: customer.buyerReference },
          contractNumber: contract?.number ?? null,
          productName: (contract && products.get(contract.electricityProductId)?.name) ?? null,
          supplyAddress: site && !(customer.address && sameAddress(site.address, customer.address)) ? site.address : null,
          template,
          cancels: cancelledInvoiceOf(invoice, invoice.cancelsInvoiceId ? cancelled.get(invoice.cancelsInvoiceId) : undefined, cancelledPayments, timezone),
          lines: invoiceLines.map((line) => invoiceLine(line, template.locale)),
          netTotal: view.netTotal,
          taxes: view.taxes,
          grossTotal: view.grossTotal,
          prepaymentsTotal: view.prepaymentsTotal,
          prepaymentTaxes: prepaymentTax.map((tax) => ({ percentage: formatDecimal(tax.percentage, 2), netAmount: formatCents(tax.netAmount), taxAmount: formatCents(tax.taxAmount) })),
          amountDue: view.amountDue,
          payment: paymentOf(account, methods.get(invoice.customerId) ?? []),
          meters: windows.get(invoice.id)!.map((window) => invoiceMeter(window, current, previous)),
          priceComponents: priceComponentsOf(invoiceLines, categories),
          nextPrepayments: (upcoming.get(`${invoice.contractId}/${issueDate}`) ?? []).map((p) => ({ dueDate: p.dueDate, amount: formatCents(p.amount) })),
          fuelMix: fuelMixOf((contract && products.get(contract.electricityProductId)?.fuelMix) ?? null),
          cancellation: contract ? cancellationOf(contract, customer, issueDate) : null,
          disputeResolution: disputeResolutionTextOf(account, template.locale === 'en-GB' ? 'en' : 'de'),
        },
        customer,
      ];
    });
  }
}
