export const PRICE_COMPONENT_KINDS = ['local_energy', 'grid_energy', 'energy', 'base_fee'] as const;
export type PriceComponentKind = (typeof PRICE_COMPONENT_KINDS)[number];
export const PRICE_UNITS = ['kWh', 'month'] as const;
export type PriceUnit = (typeof PRICE_UNITS)[number];
/**
 * What a component's charge is, for the price breakdown an electricity invoice prints: "one of
 * `energy`, `grid_fee`, `metering`, `concession_fee`, `levies`, `electricity_tax`, `other`;
 * default `energy`". Independent of `kind`, which says how the component is billed.
 */
export const PRICE_COMPONENT_CATEGORIES = ['energy', 'grid_fee', 'metering', 'concession_fee', 'levies', 'electricity_tax', 'other'] as const;
export type PriceComponentCategory = (typeof PRICE_COMPONENT_CATEGORIES)[number];
export const DEFAULT_PRICE_COMPONENT_CATEGORY: PriceComponentCategory = 'energy';

/** Energy is priced per kWh, the base fee per month. */
export function unitOf(kind: PriceComponentKind): PriceUnit {
  return kind === 'base_fee' ? 'month' : 'kWh';
}

export class PriceComponentGroup {
  id!: string;
  accountId!: string;
  electricityProductId!: string;
  name!: string;
  position!: number;
  createdAt!: Date;
  updatedAt!: Date;
}

export class PriceComponent {
  id!: string;
  accountId!: string;
  priceComponentGroupId!: string;
  name!: string;
  kind!: PriceComponentKind;
  unit!: PriceUnit;
  category!: PriceComponentCategory;
  taxRateId!: string;
  customAttributes!: Record<string, unknown>;
  createdAt!: Date;
  updatedAt!: Date;
}

/** A version of a component's net unit price, in force from `validFrom` (00:00 account timezone). */
export class Price {
  id!: string;
  accountId!: string;
  priceComponentId!: string;
  validFrom!: string;
  /** Micro-euros per unit. */
  amount!: bigint;
  createdAt!: Date;
  updatedAt!: Date;
}

export interface PriceWindow {
  price: Price;
  from: string;
  to: string;
}

const byValidFrom = (a: Price, b: Price) => (a.validFrom < b.validFrom ? -1 : a.validFrom > b.validFrom ? 1 : 0);

/** The price in force on a date: the latest `validFrom` not after it; null before the first. */
export function priceOn(prices: readonly Price[], date: string): Price | null {
  return [...prices].sort(byValidFrom).reduce<Price | null>((found, price) => (price.validFrom <= date ? price : found), null);
}

/** The prices in force over [from, to), split where the price changes; days before the first price are left out. */
export function priceWindows(prices: readonly Price[], from: string, to: string): PriceWindow[] {
  const sorted = [...prices].sort(byValidFrom);
  return sorted.flatMap((price, i) => {
    const next = sorted[i + 1]?.validFrom ?? null;
    const start = price.validFrom > from ? price.validFrom : from;
    const end = next !== null && next < to ? next : to;
    return start < end ? [{ price, from: start, to: end }] : [];
  });
}
