import type { Address } from '../../domain/addresses/address.js';
import type { Labels } from './invoice-pdf-labels.js';

const currencySymbols: Record<string, string> = { EUR: '€' };
const decimalPattern = /^(-?)(\d+)(?:\.(\d+))?$/;
const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

function parseDecimal(value: string): { negative: boolean; integer: string; fraction: string | undefined } {
  const match = decimalPattern.exec(value);
  if (!match) throw new Error(`Not a decimal string: ${value}`);
  return { negative: match[1] === '-', integer: match[2]!, fraction: match[3] };
}

/** -1, 0 or 1 for an exact decimal string. */
export function signOf(value: string): -1 | 0 | 1 {
  const { negative, integer, fraction } = parseDecimal(value);
  if (/^0*$/.test(integer + (fraction ?? ''))) return 0;
  return negative ? -1 : 1;
}

/** The decimal string with its sign flipped ("0.00" stays unsigned). */
export function negate(value: string): string {
  const sign = signOf(value);
  if (sign === 0) return value.replace(/^-/, '');
  return sign < 0 ? value.slice(1) : `-${value}`;
}

/** The exact sum of decimal strings, with as many decimals as the most precise of them. */
export function sumDecimals(values: readonly string[]): string {
  const scale = Math.max(0, ...values.map((value) => parseDecimal(value).fraction?.length ?? 0));
  const units = values.reduce((sum, value) => {
    const { negative, integer, fraction = '' } = parseDecimal(value);
    const magnitude = BigInt(integer + fraction.padEnd(scale, '0'));
    return sum + (negative ? -magnitude : magnitude);
  }, 0n);
  const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return units < 0n ? `-${text}` : text;
}

/** The same calendar date `years` later (29 February becomes 28 February in a common year). */
export function shiftYears(date: string, years: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const shifted = new Date(Date.UTC(year + years, month - 1, 1));
  const lastDay = new Date(Date.UTC(year + years, month, 0)).getUTCDate();
  shifted.setUTCDate(Math.min(day, lastDay));
  return shifted.toISOString().slice(0, 10);
}

/** Formats numbers, amounts, dates and account numbers per locale, keeping every decimal given. */
export class Format {
  private readonly symbol: string;

  constructor(
    private readonly labels: Labels,
    currency: string,
  ) {
    this.symbol = currencySymbols[currency] ?? currency;
  }

  number(value: string): string {
    const { negative, integer, fraction } = parseDecimal(value);
    const grouped = integer.replace(/\B(?=(\d{3})+(?!\d))/g, this.labels.group);
    return (negative ? '-' : '') + grouped + (fraction === undefined ? '' : this.labels.decimal + fraction);
  }

  money(value: string): string {
    const formatted = this.number(value);
    return formatted.startsWith('-') ? `-${this.labels.money(formatted.slice(1), this.symbol)}` : this.labels.money(formatted, this.symbol);
  }

  /** A number and its unit ("1.234,5 kWh"), never wrapped apart. */
  quantity(value: string, unit: string): string {
    return `${this.number(value)}\u00a0${unit}`;
  }

  percent(value: string): string {
    return this.labels.percent(this.number(value));
  }

  /** A calendar date (YYYY-MM-DD), shifted by whole days. */
  date(value: string, shiftDays = 0): string {
    const match = datePattern.exec(value);
    if (!match) throw new Error(`Not a calendar date: ${value}`);
    let [, year, month, day] = match as unknown as [string, string, string, string];
    // An invoice shows some 35 dates: parsing each into a Date and printing it back cost more than the rest of their formatting.
    if (shiftDays !== 0) {
      const shifted = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day) + shiftDays));
      year = String(shifted.getUTCFullYear()).padStart(4, '0');
      month = String(shifted.getUTCMonth() + 1).padStart(2, '0');
      day = String(shifted.getUTCDate()).padStart(2, '0');
    }
    return `${day}${this.labels.dateSeparator}${month}${this.labels.dateSeparator}${year}`;
  }

  /** A half-open period as its first and last day. */
  period(start: string, end: string): string {
    return `${this.date(start)} – ${this.date(end, -1)}`;
  }

  /** An IBAN in groups of four, joined by no-break spaces so that it never wraps. */
  iban(value: string): string {
    return value.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1\u00a0');
  }

  /** A customer's IBAN with all but the country, check digits and last four characters hidden. */
  maskedIban(value: string): string {
    const compact = value.replace(/\s+/g, '');
    return this.iban(compact.slice(0, 4) + 'X'.repeat(Math.max(0, compact.length - 8)) + compact.slice(-4));
  }
}

/** An address as lines; the country is named only when it differs from the seller's. */
export function addressLines(address: Address | null, sellerCountry: string | undefined, locale: string): string[] {
  if (!address) return [];
  const { line1, line2, line3, line4, postCode, locality, country } = address;
  const lines = [line1, line2, line3, line4, `${postCode} ${locality}`].filter((line): line is string => !!line);
  if (country !== sellerCountry) lines.push(new Intl.DisplayNames([locale], { type: 'region' }).of(country) ?? country);
  return lines;
}
