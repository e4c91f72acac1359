import PDFDocument from 'pdfkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMMON_CHARACTERS, type FontName } from '../../core/billing/invoices/invoice-pdf-fonts.js';
import { renderInvoicePdf, type InvoiceDocument } from '../../core/billing/invoices/invoice-pdf.js';
import { address, credit, english, line, stornorechnung, transfer, typical } from '../support/invoice-documents.js';
import { extractPages } from '../support/pdf.js';

/** Whether documents write their lines from the fragment cache; off, pdfkit writes every line itself. */
let cached = true;
vi.mock('../../core/billing/invoices/invoice-pdf-fragments.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../core/billing/invoices/invoice-pdf-fragments.js')>();
  return { cacheFragments: (...args: Parameters<typeof actual.cacheFragments>) => cached && actual.cacheFragments(...args) };
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

describe('invoice PDF lines from the fragment cache', () => {
  it.each(Object.entries(documents))('writes the same bytes as pdfkit for %s, with a cold and a warm cache', async (_, document) => {
    cached = false;
    const expected = await renderInvoicePdf(document);
    const lines = pdfkitLines.length;
    cached = true;
    // Cold: every line is seen once; then each is kept as it comes a second time.
    expect(await renderInvoicePdf(document)).toEqual(expected);
    expect(await renderInvoicePdf(document)).toEqual(expected);
    pdfkitLines.length = 0;
    expect(await renderInvoicePdf(document)).toEqual(expected);
    // Warm, pdfkit writes only lines with glyphs whose ids depend on the document: those with other
    // characters, or with ligatures (ff, fi, fl: glyphs of their own).
    const common = pdfkitLines.filter(({ text, font }) => !/f[fil]/.test(text) && [...text].every((char) => COMMON_CHARACTERS[font].includes(char)));
    expect(common).toEqual([]);
    expect(pdfkitLines.length).toBeLessThan(lines / 3);
  });

  it('leaves lines with document-dependent glyphs to pdfkit, and they show', async () => {
    await renderInvoicePdf(unusual);
    await renderInvoicePdf(unusual);
    pdfkitLines.length = 0;
    const pdf = await renderInvoicePdf(unusual);
    expect(pdfkitLines.map(({ text }) => text)).toEqual(expect.arrayContaining(['Łukasz Żółć – Ωμέγα', 'Zuschlag für Łódź']));
    const text = (await extractPages(pdf)).join(' ');
    for (const shown of ['Łukasz Żółć – Ωμέγα', 'Ulica Świętego Ducha 5', 'Zuschlag für Łódź', 'Stadtwerke Musterstadt GmbH']) expect(text).toContain(shown);
  });
});
