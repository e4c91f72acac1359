import fc from 'fast-check';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import type { Run, TextLayout } from '../../core/billing/invoices/invoice-pdf-font-layout.js';
import { addFonts, type FontName } from '../../core/billing/invoices/invoice-pdf-fonts.js';

interface Font {
  layoutCache: Record<string, Run>;
  layoutCached(text: string): Run;
  layoutRun(text: string): Run;
  layout(text: string, features?: unknown, onlyWidth?: boolean): TextLayout;
}

/** A font of a document prepared for invoices (numbers composed), and the same font as pdfkit alone lays out. */
function fonts(name: FontName): { composed: Font; pdfkit: Font } {
  const prepared = new PDFDocument({ autoFirstPage: false, font: '' });
  addFonts(prepared);
  const composed = (prepared.font(name) as unknown as { _font: Font })._font;
  const plain = new PDFDocument({ autoFirstPage: false, font: '' });
  plain.registerFont(name, (composed as unknown as { font: PDFKit.Mixins.PDFFontSource }).font);
  const pdfkit = (plain.font(name) as unknown as { _font: Font })._font;
  return { composed, pdfkit };
}

/** What a run shows: each glyph with its place. */
const shape = (run: Run | TextLayout) => ({
  glyphs: run.glyphs?.map((glyph) => glyph.id) ?? null,
  positions: run.positions?.map((position) => ({ ...position })) ?? null,
  advanceWidth: run.advanceWidth,
});

/** Words as invoices show them: numbers, amounts, dates, units, meter and document numbers, and plain words. */
const words = fc.oneof(
  fc.stringMatching(/^[0-9.,:;\-–+/%€() \u00a0\u202f]{2,12}$/),
  fc.stringMatching(/^[0-9A-Za-zÄÖÜäöüß.,\-/€ \u00a0]{2,16}$/),
  fc.constantFrom('207,075\u00a0kWh', '1.314,394 kWh', 'INV-2026-000017', '1ESY1160123848', '17.11.2026', '-57,99\u00a0€', 'Tariff 2026', 'fi1fl2ffi', 'AV1.Te2', 'Łódź 12'),
);

describe('invoice PDF font layout', () => {
  it.each(['regular', 'bold'] as const)('lays out any word in the %s font as fontkit shapes it whole', (name) => {
    const { composed, pdfkit } = fonts(name);
    fc.assert(
      fc.property(words, (word) => {
        expect(shape(composed.layoutRun(word))).toEqual(shape(pdfkit.layoutRun(word)));
      }),
      { numRuns: 1_000 },
    );
  });

  it.each(['regular', 'bold'] as const)('lays out any text in the %s font word by word as pdfkit does, glyphs or width only', (name) => {
    const { composed, pdfkit } = fonts(name);
    const texts = fc.array(fc.oneof(words, fc.constantFrom(' ', '  ', '\t', ' \t ', '')), { maxLength: 12 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(texts, fc.boolean(), (text, onlyWidth) => {
        expect(shape(composed.layout(text, undefined, onlyWidth))).toEqual(shape(pdfkit.layout(text, undefined, onlyWidth)));
      }),
      { numRuns: 1_000 },
    );
  });

  it('keeps a composed word with a digit for its document, out of the layout cache all documents share', () => {
    const { composed: first } = fonts('regular');
    const { composed: second } = fonts('regular');
    const amount = '318,53\u00a0€';
    const run = first.layoutCached(amount);
    expect(first.layoutCached(amount)).toBe(run);
    expect(first.layoutCache[amount]).toBeUndefined();
    expect(second.layoutCached(amount)).not.toBe(run);
    expect(shape(second.layoutCached(amount))).toEqual(shape(run));
    // Words without a digit are shared as before.
    expect(first.layoutCached('Abrechnung ')).toBe(second.layoutCached('Abrechnung '));
    expect(second.layoutCache['Abrechnung ']).toBeDefined();
  });
});
