import { addMonths, daysBetween } from '../time/calendar-date.js';
import { divideRounded, energyCost, taxOf, type Cents, type Micros } from './money.js';
import { priceWindows, type Price, type PriceComponent, type PriceComponentKind, type PriceUnit } from './price.js';
import { ratesInForce, type TaxRate } from './tax-rate.js';

/** The energy kinds a meter's consumption is billed under. */
export type EnergyKind = Exclude<PriceComponentKind, 'base_fee'>;

/** Energy of one contract meter, per calendar day of the account timezone, in Wh. */
export interface MeterEnergy {
  meterId: string;
  /** `local_energy` / `grid_energy` on balanced sites, `energy` on unbalanced ones. */
  kind: EnergyKind;
  days: ReadonlyMap<string, bigint>;
}

/** A component of the contract's product with its price versions and its tax rate's history. */
export interface PricedComponent {
  component: Pick<PriceComponent, 'id' | 'name' | 'kind' | 'unit'>;
  prices: readonly Price[];
  taxHistory: readonly TaxRate[];
}

export interface DraftInput {
  /** Half-open, calendar dates. */
  periodStart: string;
  periodEnd: string;
  contractStart: string;
  contractEnd: string | null;
  meters: readonly MeterEnergy[];
  components: readonly PricedComponent[];
  /** Received, unlocked prepayments due before the period end. */
  prepayments: Cents;
}

export interface DraftLine {
  description: string;
  kind: PriceComponentKind;
  /** kWh in 10^-3 (Wh) for energy, months in 10^-6 for base fees. */
  quantity: bigint;
  quantityScale: 3 | 6;
  unit: PriceUnit;
  unitPrice: Micros;
  netAmount: Cents;
  taxRateId: string;
  /** Hundredths of a per cent. */
  taxRate: bigint;
  periodStart: string;
  periodEnd: string;
  priceComponentId: string;
  /** The price version billed: it cannot change once an issued invoice used it. */
  priceId: string;
  meterId: string | null;
}

export interface TaxTotal {
  taxRateId: string;
  percentage: bigint;
  netAmount: Cents;
  taxAmount: Cents;
}

export interface InvoiceDraft {
  periodStart: string;
  periodEnd: string;
  lines: DraftLine[];
  netTotal: Cents;
  taxes: TaxTotal[];
  grossTotal: Cents;
  prepaymentsTotal: Cents;
  amountDue: Cents;
}

/** Why a contract cannot be billed; the bill run reports it per contract. */
export interface DraftProblem {
  code: 'missing_price' | 'missing_tax_rate' | 'missing_price_component';
  message: string;
}

export type DraftResult = { draft: InvoiceDraft; problem?: never } | { problem: DraftProblem; draft?: never };

interface Segment {
  from: string;
  to: string;
  price: Price;
  tax: TaxRate;
}

const max = (a: string, b: string) => (a > b ? a : b);
const min = (a: string, b: string) => (a < b ? a : b);

/** The first day of [from, to) that no window covers, or null when they cover it all. */
function firstUncovered(windows: readonly { from: string; to: string }[], from: string, to: string): string | null {
  let covered = from;
  for (const window of [...windows].sort((a, b) => (a.from < b.from ? -1 : 1))) {
    if (window.from > covered) return covered;
    covered = max(covered, window.to);
  }
  return covered < to ? covered : null;
}

/** The days in [from, to) cut where the price window or the tax rate changes (and at `extraCuts`). */
function segments(priced: PricedComponent, from: string, to: string, extraCuts: readonly string[]): Segment[] | DraftProblem {
  const prices = priceWindows(priced.prices, from, to);
  const rates = ratesInForce(priced.taxHistory, from, to);
  const unpriced = firstUncovered(prices, from, to);
  if (unpriced) return { code: 'missing_price', message: `${priced.component.name} has no price on ${unpriced}.` };
  const untaxed = firstUncovered(rates, from, to);
  if (untaxed) return { code: 'missing_tax_rate', message: `${priced.component.name} has no tax rate in force on ${untaxed}.` };
  const cuts = [from, ...prices.map((w) => w.from), ...rates.map((w) => w.from), ...extraCuts.filter((cut) => cut > from && cut < to), to];
  const points = [...new Set(cuts)].sort();
  return points.slice(0, -1).map((start, i) => ({
    from: start,
    to: points[i + 1]!,
    price: prices.find((w) => w.from <= start && start < w.to)!.price,
    tax: rates.find((w) => w.from <= start && start < w.to)!.rate,
  }));
}

const isProblem = (value: Segment[] | DraftProblem): value is DraftProblem => !Array.isArray(value);

/** The first of every month after `from` and before `to`: where base fees split. */
function monthStarts(from: string, to: string): string[] {
  const starts: string[] = [];
  for (let month = addMonths(from, 1); month < to; month = addMonths(month, 1)) starts.push(month);
  return starts;
}

function line(priced: PricedComponent, segment: Segment, quantity: bigint, quantityScale: 3 | 6, netAmount: Cents, meterId: string | null): DraftLine {
  const { component } = priced;
  return {
    description: component.name,
    kind: component.kind,
    quantity,
    quantityScale,
    unit: component.unit,
    unitPrice: BigInt(segment.price.amount),
    netAmount,
    taxRateId: segment.tax.id,
    taxRate: BigInt(segment.tax.percentage),
    periodStart: segment.from,
    periodEnd: segment.to,
    priceComponentId: component.id,
    priceId: segment.price.id,
    meterId,
  };
}

function energyLines(priced: PricedComponent, meter: MeterEnergy, from: string, to: string): DraftLine[] | DraftProblem {
  const cut = segments(priced, from, to, []);
  if (isProblem(cut)) return cut;
  return cut.flatMap((segment) => {
    let wh = 0n;
    for (const [day, dayWh] of meter.days) if (day >= segment.from && day < segment.to) wh += dayWh;
    return wh === 0n ? [] : [line(priced, segment, wh, 3, energyCost(wh, BigInt(segment.price.amount)), meter.meterId)];
  });
}

/** Base fees per month, pro rata by days for partial months: quantity = days / days in month (6 decimals). */
function baseFeeLines(priced: PricedComponent, from: string, to: string): DraftLine[] | DraftProblem {
  const cut = segments(priced, from, to, monthStarts(from, to));
  if (isProblem(cut)) return cut;
  return cut.map((segment) => {
    const monthStart = `${segment.from.slice(0, 7)}-01`;
    const quantity = divideRounded(BigInt(daysBetween(segment.from, segment.to)) * 1_000_000n, BigInt(daysBetween(monthStart, addMonths(monthStart, 1))));
    return line(priced, segment, quantity, 6, divideRounded(quantity * BigInt(segment.price.amount), 10_000_000_000n), null);
  });
}

/**
 * The draft invoice of one contract for [periodStart, periodEnd): energy per
 * contract meter and kind at the price and tax rate of each day, base fees per month, then totals
 * with one rounding per line and one per tax rate. Pure: the bill run loads, this computes.
 */
export function draftInvoice(input: DraftInput): DraftResult {
  const from = max(input.periodStart, input.contractStart);
  const to = input.contractEnd === null ? input.periodEnd : min(input.periodEnd, input.contractEnd);
  const lines: DraftLine[] = [];
  if (from < to) {
    for (const meter of input.meters) {
      const pricing = input.components.filter((c) => c.component.kind === meter.kind);
      const billed = [...meter.days.values()].some((wh) => wh !== 0n);
      if (pricing.length === 0 && billed) return { problem: { code: 'missing_price_component', message: `The product has no ${meter.kind} component for meter ${meter.meterId}.` } };
      for (const priced of pricing) {
        const result = energyLines(priced, meter, from, to);
        if (!Array.isArray(result)) return { problem: result };
        lines.push(...result);
      }
    }
    for (const priced of input.components.filter((c) => c.component.kind === 'base_fee')) {
      const result = baseFeeLines(priced, from, to);
      if (!Array.isArray(result)) return { problem: result };
      lines.push(...result);
    }
  }
  return { draft: totals({ periodStart: input.periodStart, periodEnd: input.periodEnd, lines, prepayments: input.prepayments }) };
}

/** Net, taxes per rate (rounded once each), gross, and what is due after prepayments. */
export function totals(invoice: { periodStart: string; periodEnd: string; lines: DraftLine[]; prepayments: Cents }): InvoiceDraft {
  const byRate = new Map<string, TaxTotal>();
  for (const l of invoice.lines) {
    const total = byRate.get(l.taxRateId) ?? { taxRateId: l.taxRateId, percentage: l.taxRate, netAmount: 0n, taxAmount: 0n };
    total.netAmount += l.netAmount;
    byRate.set(l.taxRateId, total);
  }
  const taxes = [...byRate.values()].map((t) => ({ ...t, taxAmount: taxOf(t.netAmount, t.percentage) }));
  const netTotal = invoice.lines.reduce((sum, l) => sum + l.netAmount, 0n);
  const grossTotal = netTotal + taxes.reduce((sum, t) => sum + t.taxAmount, 0n);
  return { periodStart: invoice.periodStart, periodEnd: invoice.periodEnd, lines: invoice.lines, netTotal, taxes, grossTotal, prepaymentsTotal: invoice.prepayments, amountDue: grossTotal - invoice.prepayments };
}
