import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FUEL_SOURCES, percentageTenths, repeatedSources, sumsToHundred, totalTenths } from '../../../core/domain/products/electricity-product.js';
import { ValidationError } from '../../../core/errors.js';
import { createProductCommand, updateProductCommand } from '../../../core/products/products.commands.js';
import { parseInput } from '../../../core/validation.js';

/** Splits 1000 tenths into `parts` non-negative shares, as percentages with one decimal. */
const splitOfHundred = fc.integer({ min: 1, max: FUEL_SOURCES.length }).chain((parts) =>
  fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: parts - 1, maxLength: parts - 1 }).map((cuts) => {
    const bounds = [0, ...cuts.sort((a, b) => a - b), 1000];
    return bounds.slice(1).map((bound, i) => (bound - bounds[i]!) / 10);
  }),
);

describe('fuel mix percentages', () => {
  it.each([
    [0, 0],
    [100, 1000],
    [42.5, 425],
    [33.3, 333],
    [0.1, 1],
    [42.55, null],
    [100.1, null],
    [-0.1, null],
    [1e-7, null],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
  ])('%d is %s tenths', (percentage, tenths) => {
    expect(percentageTenths(percentage)).toBe(tenths);
  });

  it.each([
    [[100], true],
    [[33.3, 33.3, 33.4], true],
    [[0.1, 0.2, 99.7], true],
    [[50, 49.9], false],
    [[50, 50.1], false],
    [[33.33, 33.33, 33.34], false],
    [[], false],
  ])('%j sums to exactly 100: %s', (percentages, expected) => {
    expect(sumsToHundred(percentages)).toBe(expected);
  });

  it('sums any split of 100 into shares of one decimal to exactly 100 (no floating-point drift), and nothing 0.1 off', () => {
    fc.assert(
      fc.property(splitOfHundred, fc.nat(), fc.constantFrom(-0.1, 0.1), (shares, pick, delta) => {
        expect(sumsToHundred(shares)).toBe(true);
        const index = pick % shares.length;
        const changed = shares.map((share, i) => (i === index ? Math.round((share + delta) * 10) / 10 : share));
        if (changed[index]! >= 0) expect(sumsToHundred(changed)).toBe(false);
      }),
    );
  });

  it('totals in tenths, or not at all when a percentage is invalid', () => {
    expect(totalTenths([33.3, 33.3, 33.4])).toBe(1000);
    expect(totalTenths([50, 49.9])).toBe(999);
    expect(totalTenths([50, 49.95])).toBeNull();
    expect(totalTenths([])).toBe(0);
  });

  it('names each source after its first mention', () => {
    expect(repeatedSources([{ source: 'coal' }, { source: 'nuclear' }, { source: 'coal' }, { source: 'coal' }])).toEqual([2, 3]);
    expect(repeatedSources(FUEL_SOURCES.map((source) => ({ source })))).toEqual([]);
  });
});

describe('product commands with a fuel mix', () => {
  const mix = {
    year: 2025,
    sources: [
      { source: 'renewable_eeg', percentage: 60.4 },
      { source: 'renewable_other', percentage: 20.1 },
      { source: 'natural_gas', percentage: 19.5 },
    ],
    co2GramsPerKwh: 98.5,
    radioactiveWasteMgPerKwh: 0,
  };
  const errorsOf = (schema: typeof createProductCommand | typeof updateProductCommand, body: unknown) => {
    try {
      parseInput(schema, body);
      return [];
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return error.errors.map((e) => [e.path, e.code]);
    }
  };

  it('is optional and nullable', () => {
    expect(parseInput(createProductCommand, { name: 'P' }).fuelMix).toBeNull();
    expect(parseInput(createProductCommand, { name: 'P', fuelMix: null }).fuelMix).toBeNull();
    expect(parseInput(createProductCommand, { name: 'P', fuelMix: mix }).fuelMix).toEqual(mix);
  });

  it('refuses a mix not summing to 100, a percentage with two decimals, a repeated or unknown source and negative figures, by path', () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ sources: [{ source: 'coal', percentage: 50 }, { source: 'lignite', percentage: 49.9 }] }, 'fuelMix.sources', 'fuel_mix_not_100'],
      [{ sources: [] }, 'fuelMix.sources', 'fuel_mix_not_100'],
      [{ sources: [{ source: 'coal', percentage: 50.05 }, { source: 'lignite', percentage: 49.95 }] }, 'fuelMix.sources[0].percentage', 'invalid_percentage'],
      [{ sources: [{ source: 'coal', percentage: 50 }, { source: 'coal', percentage: 50 }] }, 'fuelMix.sources[1].source', 'duplicate_source'],
      [{ sources: [{ source: 'wind', percentage: 100 }] }, 'fuelMix.sources[0].source', 'invalid_value'],
      [{ co2GramsPerKwh: -1 }, 'fuelMix.co2GramsPerKwh', 'too_small'],
      [{ radioactiveWasteMgPerKwh: -0.001 }, 'fuelMix.radioactiveWasteMgPerKwh', 'too_small'],
      [{ year: 2025.5 }, 'fuelMix.year', 'invalid_type'],
    ];
    for (const [change, path, code] of cases) {
      expect(errorsOf(createProductCommand, { name: 'P', fuelMix: { ...mix, ...change } }), path).toContainEqual([path, code]);
    }
    // Only the percentage's own error when one is invalid: the sum is not judged then.
    expect(errorsOf(createProductCommand, { name: 'P', fuelMix: { ...mix, sources: [{ source: 'coal', percentage: 100.5 }] } })).toEqual([
      ['fuelMix.sources[0].percentage', 'invalid_percentage'],
    ]);
  });

  it('takes a partial mix in a patch (merged, then checked whole) and null to remove it', () => {
    expect(parseInput(updateProductCommand, { fuelMix: { year: 2026 } })).toEqual({ fuelMix: { year: 2026 } });
    expect(parseInput(updateProductCommand, { fuelMix: null })).toEqual({ fuelMix: null });
    expect(errorsOf(updateProductCommand, { fuelMix: { sources: [{ source: 'coal', percentage: 99 }] } })).toEqual([['fuelMix.sources', 'fuel_mix_not_100']]);
  });
});
