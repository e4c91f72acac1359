import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { draftInvoice, type DraftInput, type EnergyKind, type InvoiceDraft, type PricedComponent } from '../../../core/domain/billing/invoice-draft.js';
import { Price, type PriceComponentKind } from '../../../core/domain/billing/price.js';
import { TaxRate } from '../../../core/domain/billing/tax-rate.js';
import { addDays } from '../../../core/domain/time/calendar-date.js';

const vat = (percentage: number, validFrom = '2020-01-01', validUntil: string | null = null, id = `vat-${percentage}`) =>
  Object.assign(new TaxRate(), { id, name: 'VAT', percentage, validFrom, validUntil });
const price = (validFrom: string, amount: bigint) => Object.assign(new Price(), { id: `${validFrom}-${amount}`, validFrom, amount });
const component = (kind: PriceComponentKind, prices: Price[], taxHistory: TaxRate[] = [vat(1900)]): PricedComponent => ({
  component: { id: kind, name: kind.replace('_', ' '), kind, unit: kind === 'base_fee' ? 'month' : 'kWh' },
  prices,
  taxHistory,
});
const everyDay = (from: string, to: string, wh: bigint) => {
  const days = new Map<string, bigint>();
  for (let day = from; day < to; day = addDays(day, 1)) days.set(day, wh);
  return days;
};

const march = (overrides: Partial<DraftInput> = {}): DraftInput => ({
  periodStart: '2026-03-01',
  periodEnd: '2026-04-01',
  contractStart: '2026-01-01',
  contractEnd: null,
  meters: [
    { meterId: 'm1', kind: 'local_energy', days: everyDay('2026-03-01', '2026-04-01', 2_000n) },
    { meterId: 'm1', kind: 'grid_energy', days: everyDay('2026-03-01', '2026-04-01', 3_000n) },
  ],
  components: [
    component('local_energy', [price('2026-01-01', 275_000n), price('2026-03-16', 289_500n)]),
    component('grid_energy', [price('2026-01-01', 320_000n)]),
    component('base_fee', [price('2026-01-01', 9_900_000n)]),
  ],
  prepayments: 6_000n,
  ...overrides,
});

const draftOf = (input: DraftInput): InvoiceDraft => {
  const result = draftInvoice(input);
  if (!result.draft) throw new Error(result.problem.message);
  return result.draft;
};
const summary = (draft: InvoiceDraft) => draft.lines.map((l) => [l.kind, l.periodStart, l.periodEnd, l.quantity, l.unitPrice, l.netAmount]);

describe('draft invoices: worked examples', () => {
  it('bills local and grid energy at their prices, split where the price changes, plus the base fee', () => {
    const draft = draftOf(march());
    expect(summary(draft)).toEqual([
      // 15 days × 2 kWh = 30 kWh × 0.275 = 8.25 €
      ['local_energy', '2026-03-01', '2026-03-16', 30_000n, 275_000n, 825n],
      // 16 days × 2 kWh = 32 kWh × 0.2895 = 9.264 € → 9.26 €
      ['local_energy', '2026-03-16', '2026-04-01', 32_000n, 289_500n, 926n],
      // 31 days × 3 kWh = 93 kWh × 0.32 = 29.76 €
      ['grid_energy', '2026-03-01', '2026-04-01', 93_000n, 320_000n, 2_976n],
      ['base_fee', '2026-03-01', '2026-04-01', 1_000_000n, 9_900_000n, 990n],
    ]);
    // 57.17 € net, 19 % = 10.8623 → 10.86 €, 68.03 € gross, 60.00 € prepaid.
    expect([draft.netTotal, draft.taxes, draft.grossTotal, draft.prepaymentsTotal, draft.amountDue]).toEqual([
      5_717n,
      [{ taxRateId: 'vat-1900', percentage: 1900n, netAmount: 5_717n, taxAmount: 1_086n }],
      6_803n,
      6_000n,
      803n,
    ]);
  });

  it('bills a contract starting mid-month from its start, the base fee pro rata by days', () => {
    const draft = draftOf(march({ contractStart: '2026-03-10', prepayments: 0n }));
    expect(summary(draft)).toEqual([
      ['local_energy', '2026-03-10', '2026-03-16', 12_000n, 275_000n, 330n],
      ['local_energy', '2026-03-16', '2026-04-01', 32_000n, 289_500n, 926n],
      ['grid_energy', '2026-03-10', '2026-04-01', 66_000n, 320_000n, 2_112n],
      // 22/31 = 0.709677 months × 9.90 € = 7.0258 € → 7.03 €
      ['base_fee', '2026-03-10', '2026-04-01', 709_677n, 9_900_000n, 703n],
    ]);
    expect([draft.netTotal, draft.taxes[0]!.taxAmount, draft.grossTotal, draft.amountDue]).toEqual([4_071n, 773n, 4_844n, 4_844n]);
  });

  it('splits where the tax rate changes and totals each rate on its own', () => {
    const taxes = [vat(1900, '2020-01-01', '2026-03-20', 'vat-19'), vat(1600, '2026-03-20', null, 'vat-16')];
    const draft = draftOf(
      march({
        meters: [{ meterId: 'm1', kind: 'grid_energy', days: everyDay('2026-03-01', '2026-04-01', 3_000n) }],
        components: [component('grid_energy', [price('2026-01-01', 320_000n)], taxes), component('base_fee', [price('2026-01-01', 9_900_000n)], taxes)],
        prepayments: 0n,
      }),
    );
    expect(summary(draft)).toEqual([
      ['grid_energy', '2026-03-01', '2026-03-20', 57_000n, 320_000n, 1_824n],
      ['grid_energy', '2026-03-20', '2026-04-01', 36_000n, 320_000n, 1_152n],
      ['base_fee', '2026-03-01', '2026-03-20', 612_903n, 9_900_000n, 607n],
      ['base_fee', '2026-03-20', '2026-04-01', 387_097n, 9_900_000n, 383n],
    ]);
    // 24.31 € at 19 % = 4.6189 → 4.62 €; 15.35 € at 16 % = 2.456 → 2.46 €
    expect(draft.taxes).toEqual([
      { taxRateId: 'vat-19', percentage: 1900n, netAmount: 2_431n, taxAmount: 462n },
      { taxRateId: 'vat-16', percentage: 1600n, netAmount: 1_535n, taxAmount: 246n },
    ]);
  });

  it('names what is missing instead of billing part of it', () => {
    expect(draftInvoice(march({ components: [component('local_energy', [price('2026-03-05', 1n)]), component('grid_energy', [price('2026-01-01', 1n)])] })).problem).toMatchObject({ code: 'missing_price' });
    expect(draftInvoice(march({ components: [component('local_energy', [price('2026-01-01', 1n)])] })).problem).toMatchObject({ code: 'missing_price_component' });
    expect(draftInvoice(march({ components: [component('base_fee', [price('2026-01-01', 1n)], [vat(1900, '2026-03-02')])], meters: [] })).problem).toMatchObject({ code: 'missing_tax_rate' });
  });

  it('bills nothing outside the contract', () => {
    const draft = draftOf(march({ contractStart: '2026-04-01', prepayments: 0n }));
    expect([draft.lines, draft.grossTotal]).toEqual([[], 0n]);
  });
});

const day = (n: number) => addDays('2026-01-01', n);
const scenario = fc.record({
  energy: fc.array(fc.tuple(fc.bigInt({ min: 0n, max: 50_000n }), fc.bigInt({ min: 0n, max: 50_000n })), { minLength: 90, maxLength: 90 }),
  localPrices: fc.uniqueArray(fc.integer({ min: 1, max: 89 }), { maxLength: 3 }),
  amounts: fc.array(fc.bigInt({ min: 0n, max: 999_999n }), { minLength: 4, maxLength: 4 }),
  taxChange: fc.option(fc.integer({ min: 1, max: 89 }), { nil: null }),
  contractStart: fc.integer({ min: -30, max: 60 }),
  split: fc.integer({ min: 1, max: 89 }),
  prepayments: fc.bigInt({ min: 0n, max: 100_000n }),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function inputOf(s: Scenario, periodStart = day(0), periodEnd = day(90)): DraftInput {
  const energy = (index: 0 | 1) => new Map(s.energy.map((pair, n) => [day(n), pair[index]] as [string, bigint]));
  const taxes = s.taxChange === null ? [vat(1900)] : [vat(1900, '2020-01-01', day(s.taxChange), 'vat-19'), vat(700, day(s.taxChange), null, 'vat-7')];
  const kinds: EnergyKind[] = ['local_energy', 'grid_energy'];
  return {
    periodStart,
    periodEnd,
    contractStart: day(s.contractStart),
    contractEnd: null,
    meters: kinds.map((kind, i) => ({ meterId: 'm', kind, days: energy(i as 0 | 1) })),
    components: [
      component('local_energy', [price('2025-01-01', s.amounts[0]!), ...s.localPrices.map((n, i) => price(day(n), s.amounts[i + 1]!))], taxes),
      component('grid_energy', [price('2025-01-01', s.amounts[3]!)], taxes),
      component('base_fee', [price('2025-01-01', s.amounts[1]! * 10n)], taxes),
    ],
    prepayments: s.prepayments,
  };
}

describe('draft invoices: invariants', () => {
  it('net = Σ line nets, gross = net + Σ taxes, each line = round(quantity × unit price), each tax = round(Σ nets × rate)', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const draft = draftOf(inputOf(s));
        expect(draft.netTotal).toBe(draft.lines.reduce((sum, l) => sum + l.netAmount, 0n));
        expect(draft.grossTotal).toBe(draft.netTotal + draft.taxes.reduce((sum, t) => sum + t.taxAmount, 0n));
        expect(draft.amountDue).toBe(draft.grossTotal - s.prepayments);
        for (const l of draft.lines) {
          const exact = new Decimal(l.quantity.toString()).div(10 ** l.quantityScale).mul(new Decimal(l.unitPrice.toString()).div(1_000_000)).mul(100);
          expect(l.netAmount).toBe(BigInt(exact.toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toFixed(0)));
        }
        for (const t of draft.taxes) {
          const exact = new Decimal(t.netAmount.toString()).mul(t.percentage.toString()).div(10_000);
          expect(t.taxAmount).toBe(BigInt(exact.toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toFixed(0)));
        }
      }),
    );
  });

  it('bills the same energy for a period as for its two halves', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const energyOf = (draft: InvoiceDraft) =>
          draft.lines.filter((l) => l.kind !== 'base_fee').reduce((sums, l) => ({ ...sums, [l.kind]: (sums[l.kind] ?? 0n) + l.quantity }), {} as Record<string, bigint>);
        const whole = energyOf(draftOf(inputOf(s)));
        const first = energyOf(draftOf(inputOf(s, day(0), day(s.split))));
        const second = energyOf(draftOf(inputOf(s, day(s.split), day(90))));
        for (const kind of ['local_energy', 'grid_energy']) expect((first[kind] ?? 0n) + (second[kind] ?? 0n)).toBe(whole[kind] ?? 0n);
      }),
    );
  });
});
