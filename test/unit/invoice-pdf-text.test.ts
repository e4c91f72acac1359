import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import fc from 'fast-check';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { collectPageContent } from '../../core/billing/invoices/invoice-pdf-pages.js';
import { PdfLayout } from '../../core/billing/invoices/invoice-pdf-layout.js';
import { StructureTree } from '../../core/billing/invoices/invoice-pdf-structure.js';
import { drawText } from '../../core/billing/invoices/invoice-pdf-text.js';

const font = createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf');

/** Sets up a document's structure tree; answers how to draw a tagged text into it, and how to end the tree. */
type Draw = (doc: PDFKit.PDFDocument) => { text(text: string, x: number, y: number, width: number, align: 'left' | 'right'): void; end(): void };

/** pdfkit's own text() and structure elements, as the layout used them before. */
const pdfkitText: Draw = (doc) => {
  const root = doc.struct('Document');
  doc.addStructure(root);
  return { text: (text, x, y, width, align) => doc.text(text, x, y, { width, align, structParent: root, structType: 'P' }), end: () => root.end() };
};
const cachedText: Draw = (doc) => {
  const structure = new StructureTree(doc);
  return { text: (text, x, y, width, align) => drawText(doc, false, 8, text, { x, y, width, align, parent: structure, tag: 'P' }), end: () => structure.end() };
};

type Placed = [text: string, width: number, align: 'left' | 'right'];

const texts: Placed[] = [
  ['Rechnungsbetrag brutto', 200, 'left'],
  ['257,99 €', 80, 'right'],
  ['Wir ziehen 57,99 € am 17.11.2026 per SEPA-Lastschrift von Ihrem Konto DE89 XXXX XXXX XXXX XX30 00 ein.', 150, 'left'],
  ['Stadtwerke Musterstadt GmbH\nHauptstraße 1\n\n12345 Musterstadt', 120, 'right'],
  ['Ein-sehr-langes-Wort-ohne-Leerzeichen-das-nicht-in-eine-Zeile-passt', 60, 'left'],
  ['Musterstadt-Nord, Zähler 1ESY1160123456 ', 160, 'right'],
  ['1.314,394\u00a0kWh', 43, 'right'],
  ['1ESY1160000000\nWohnung 3', 80, 'left'],
  ['521,295 kWh\n01.10.2026', 78, 'right'],
  ['Erika Meier\nNebenweg 5 \n10005 Beispielhausen', 70, 'left'],
];

/** A tagged document with the texts at the top, and the wrapped ones again at the bottom, where they run onto a new page. */
async function render(draw: Draw, collect = false, compress = true, placed: readonly Placed[] = texts): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, compress, tagged: true, font: '', info: { CreationDate: new Date('2026-11-03T00:00:00Z') } });
  if (collect) collectPageContent(doc);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => doc.on('end', resolve));
  const structure = draw(doc);
  doc.addPage();
  doc.font(font).fontSize(8).fillColor('#1a1a1a');
  let y = 50;
  for (const [text, width, align] of placed) {
    structure.text(text, 60, y, width, align);
    y += 60;
  }
  structure.text(texts[2]![0], 60, doc.page.maxY() - 20, texts[2]![1], 'left');
  structure.end();
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

/** Every stream of a PDF, inflated (all are deflated). */
function streams(pdf: Buffer): string[] {
  const text = pdf.toString('latin1');
  return [...text.matchAll(/(?<!end)stream\n/g)].map((match) => {
    const start = match.index + match[0].length;
    return inflateSync(Buffer.from(text.slice(start, text.indexOf('\nendstream', start)), 'latin1')).toString('latin1');
  });
}

describe('invoice PDF text', () => {
  it('draws texts and their structure elements as pdfkit does, first wrapping them and then as wrapped before, also where pdfkit starts a new page', async () => {
    const expected = await render(pdfkitText);
    expect(await render(cachedText)).toEqual(expected);
    expect(await render(cachedText)).toEqual(expected);
    expect(expected.toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(2);
  });

  it('draws any text of words and line feeds as pdfkit does, and measures its height as pdfkit does', async () => {
    const word = fc.stringMatching(/^[0-9A-Za-zÄÖäöß.,€-]{1,12}$/);
    const line = fc.array(word, { minLength: 1, maxLength: 4 }).chain((words) => fc.constantFrom(words.join(' '), `${words.join(' ')} `, words.join('\u00a0')));
    const text = fc.array(fc.oneof(line, fc.constant('')), { minLength: 1, maxLength: 4 }).map((lines) => lines.join('\n'));
    const placed = fc.tuple(text, fc.integer({ min: 20, max: 160 }), fc.constantFrom('left' as const, 'right' as const));
    const layout = new PdfLayout({ title: 't', author: 'a', subject: 's', createdAt: new Date('2026-11-03T00:00:00Z'), lang: 'de' }, () => 0);
    await fc.assert(
      fc.asyncProperty(fc.array(placed, { minLength: 1, maxLength: 6 }), async (cases) => {
        const expected = await render(pdfkitText, false, true, cases);
        expect(await render(cachedText, false, true, cases)).toEqual(expected);
        expect(await render(cachedText, false, true, cases)).toEqual(expected);
        for (const [text, width] of cases) expect(layout.heightOf(text, width)).toBe(layout.doc.font('regular').fontSize(8.5).heightOfString(text, { width }));
      }),
      { numRuns: 60 },
    );
  });

  it('writes the same page content when it collects the operators: the same bytes uncompressed, the same streams once inflated', async () => {
    expect(await render(pdfkitText, true, false)).toEqual(await render(pdfkitText, false, false));
    const [collected, pdfkit] = [await render(pdfkitText, true), await render(pdfkitText)];
    expect(streams(collected)).toEqual(streams(pdfkit));
    expect(streams(collected).filter((stream) => /\bTJ\b/.test(stream))).toHaveLength(2);
  });
});
