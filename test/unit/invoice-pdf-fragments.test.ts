import PDFDocument from 'pdfkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FontName } from '../../core/billing/invoices/invoice-pdf-fonts.js';
import { renderInvoicePdf, type InvoiceDocument } from '../../core/billing/invoices/invoice-pdf.js';
import { address, credit, english, line, stornorechnung, transfer, typical } from '../support/invoice-documents.js';
import { extractPages, objectsBesideContent, textRunsOf, type TextRun } from '../support/pdf.js';

/** Whether documents write their lines themselves (and from the cache); off, pdfkit writes every line. */
let cached = true;
vi.mock('../../core/billing/invoices/invoice-pdf-fragments.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../core/billing/invoices/invoice-pdf-fragments.js')>();
  return { writeLines: (...args: Parameters<typeof actual.writeLines>) => cached && actual.writeLines(...args) };
});

/** The lines pdfkit wrote itself, with the font they are in. */
const pdfkitLines: Array<{ text: string; font: FontName }> = [];
type Fragment = (this: { _font: { name: string } }, text: string, ...rest: unknown[]) => void;
const prototype = PDFDocument.prototype as unknown as { _fragment: Fragment };
const pdfkitFragment = prototype._fragment;
prototype._fragment = function (text, ...rest) {
  pdfkitLines.push({ text: text.replace(/\n/g, ''), font: this._font.name.endsWith('-Bold') ? 'bold' : 'regular' });
  return pdfkitFragment.call(this, text, ...rest);
};

const manyLines: InvoiceDocument = {
  ...typical,
  lines: Array.from({ length: 70 }, (_, i) => line(`Position ${i + 1} Messlokation DE000${i}`, `${i + 1}.000`, 'kWh', '0.2900', '19.00', `${(i + 1) * 0.29}`)),
};

/** Characters beyond the ones every document's fonts start with: their glyph ids depend on the document. */
const unusual: InvoiceDocument = {
  ...typical,
  customer: { ...typical.customer, name: 'Łukasz Żółć – Ωμέγα', address: address('Ulica Świętego Ducha 5', '80-834', 'Gdańsk', 'PL') },
  lines: [...typical.lines, line('Zuschlag für Łódź', '1.000', 'kWh', '0.2900', '19.00', '0.29')],
};

const documents = { typical, stornorechnung, english, transfer, credit, manyLines, unusual };

afterEach(() => {
  cached = true;
  pdfkitLines.length = 0;
});

/** Expects the same runs of text, in the same fonts, at the same places (to a thousandth of a point). */
function expectSameRuns(actual: TextRun[][], expected: TextRun[][]): void {
  expect(actual.map((runs) => runs.map(({ str, fontName }) => [str, fontName]))).toEqual(expected.map((runs) => runs.map(({ str, fontName }) => [str, fontName])));
  actual.forEach((runs, page) =>
    runs.forEach((run, i) => run.transform.forEach((value, k) => expect(Math.abs(value - expected[page]![i]!.transform[k]!)).toBeLessThan(1e-3))),
  );
}

describe('invoice PDF lines written by the layout', () => {
  it.each(Object.entries(documents))('draws the same text as pdfkit for %s, in the same objects, with a cold and a warm cache', async (_, document) => {
    cached = false;
    const expected = await renderInvoicePdf(document);
    const [expectedRuns, expectedObjects] = [await textRunsOf(expected), objectsBesideContent(expected)];
    expect(expectedRuns.flat().length).toBeGreaterThan(100);
    cached = true;
    pdfkitLines.length = 0;
    // Cold: every line is seen once; then each is kept as it comes a second time. The bytes stay the same.
    const first = await renderInvoicePdf(document);
    for (let render = 0; render < 3; render++) {
      const pdf = render === 0 ? first : await renderInvoicePdf(document);
      expect(pdf).toEqual(first);
      expectSameRuns(await textRunsOf(pdf), expectedRuns);
      expect(objectsBesideContent(pdf)).toEqual(expectedObjects);
      expect(pdf.length).toBeLessThan(expected.length);
    }
    // pdfkit writes no line itself: every line here is plain text (no marks placed off their glyph).
    expect(pdfkitLines).toEqual([]);
  });

  it('lays out lines with document-dependent glyphs in each document anew, and they show', async () => {
    // The same line after other unusual characters: its glyphs get other ids in this document's subset.
    const reordered: InvoiceDocument = { ...unusual, customer: { ...unusual.customer, name: 'Ωμέγα Żółć' } };
    cached = false;
    const expected = await textRunsOf(await renderInvoicePdf(reordered));
    cached = true;
    await renderInvoicePdf(unusual);
    await renderInvoicePdf(unusual);
    const pdf = await renderInvoicePdf(reordered);
    expectSameRuns(await textRunsOf(pdf), expected);
    const text = (await extractPages(pdf)).join(' ');
    for (const shown of ['Ωμέγα Żółć', 'Ulica Świętego Ducha 5', 'Zuschlag für Łódź', 'Stadtwerke Musterstadt GmbH']) expect(text).toContain(shown);
  });
});
