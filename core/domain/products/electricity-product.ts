export const PREPAYMENT_CYCLES = ['monthly', 'quarterly', 'yearly'] as const;
export type PrepaymentCycle = (typeof PREPAYMENT_CYCLES)[number];

export interface PrepaymentConfiguration {
  cycle: PrepaymentCycle;
  /** 1..28, so every month has the day. */
  dayOfMonth: number;
}

/**
 * Energy sources of the Stromkennzeichnung (§42 EnWG), a closed set: renewables financed under the
 * EEG and other renewables (with guarantees of origin), nuclear, hard coal (`coal`) and lignite
 * apart (the law's "coal" is both; suppliers show them apart), natural gas, and other fossil fuels.
 */
export const FUEL_SOURCES = ['renewable_eeg', 'renewable_other', 'nuclear', 'coal', 'lignite', 'natural_gas', 'other_fossil'] as const;
export type FuelSource = (typeof FUEL_SOURCES)[number];

export interface FuelMixSource {
  source: FuelSource;
  /** Percent with at most one decimal, e.g. 42.5. */
  percentage: number;
}

/** The Stromkennzeichnung (§42 EnWG) an invoice prints. */
export interface FuelMix {
  /** The year the mix describes, 2000 to 2100. */
  year: number;
  /** Each source at most once; the percentages sum to exactly 100. */
  sources: FuelMixSource[];
  co2GramsPerKwh: number;
  radioactiveWasteMgPerKwh: number;
}

const ONE_DECIMAL = /^\d+(\.\d)?$/;

/**
 * A percentage in tenths of a percent: "percentages decimals with at most 1 decimal place" from
 * 0 to 100; null otherwise. Read from the number's shortest decimal form, so 33.3 is 333 exactly.
 */
export function percentageTenths(percentage: number): number | null {
  if (!Number.isFinite(percentage) || !ONE_DECIMAL.test(String(percentage))) return null;
  const tenths = Math.round(percentage * 10);
  return tenths <= 1000 ? tenths : null;
}

/** The total of percentages in tenths, added as integers so that 33.3 + 33.3 + 33.4 is exactly 1000; null when one is not a valid percentage. */
export function totalTenths(percentages: readonly number[]): number | null {
  let total = 0;
  for (const percentage of percentages) {
    const tenths = percentageTenths(percentage);
    if (tenths === null) return null;
    total += tenths;
  }
  return total;
}

/** Percentages "that sum to exactly 100". */
export function sumsToHundred(percentages: readonly number[]): boolean {
  return totalTenths(percentages) === 1000;
}

/** Indexes of sources already named earlier in the list: "each source at most once". */
export function repeatedSources(sources: readonly { source: string }[]): number[] {
  const seen = new Set<string>();
  return sources.flatMap((entry, index) => {
    if (seen.has(entry.source)) return [index];
    seen.add(entry.source);
    return [];
  });
}

export class ElectricityProduct {
  id!: string;
  accountId!: string;
  name!: string;
  description!: string | null;
  prepaymentConfiguration!: PrepaymentConfiguration | null;
  fuelMix!: FuelMix | null;
  createdAt!: Date;
  updatedAt!: Date;
}
