import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { addFonts } from '../../core/billing/invoices/invoice-pdf-fonts.js';
import { collectOutput } from '../../core/billing/invoices/invoice-pdf-output.js';
import { cacheOutputIntent } from '../../core/billing/invoices/invoice-pdf-output-intent.js';

/** pdfkit's own output: the chunks its stream emits. */
function streamed(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
}

/** A tagged PDF/A-3 document with embedded fonts, text in both, an attachment, non-ASCII metadata and two pages. */
function write(output: (doc: PDFKit.PDFDocument) => Promise<Buffer>): Promise<Buffer> {
  const doc = new PDFDocument({
    autoFirstPage: false,
    font: '',
    subset: 'PDF/A-3b',
    pdfVersion: '1.7',
    tagged: true,
    lang: 'de-DE',
    info: { Title: 'Rechnung Müller & Söhne – Ωμέγα', CreationDate: new Date('2026-11-03T00:00:00Z') },
  });
  const bytes = output(doc);
  addFonts(doc);
  const root = doc.struct('Document');
  doc.addStructure(root);
  doc.file(Buffer.from('<?xml version="1.0"?><rsm:CrossIndustryInvoice/>'), { name: 'factur-x.xml', type: 'text/xml', creationDate: new Date('2026-11-03T00:00:00Z') });
  for (const page of [1, 2]) {
    doc.addPage();
    doc.font('bold').fontSize(14).text(`Seite ${page}: Rechnung für Łukasz Żółć`, 70, 70, { structParent: root, structType: 'H1' });
    doc.font('regular').fontSize(8.5).text('Zu zahlen: 57,99 € bis zum 17.11.2026 – „Abschlag“', 70, 100, { width: 120, align: 'right', structParent: root, structType: 'P' });
  }
  root.end();
  doc.end();
  return bytes;
}

describe('invoice PDF output', () => {
  it("answers the same bytes as pdfkit's stream", async () => {
    const expected = await write(streamed);
    expect(expected.subarray(0, 8).toString('latin1')).toBe('%PDF-1.7');
    expect(await write(collectOutput)).toEqual(expected);
  });

  it("writes the colour output intent with pdfkit's bytes from the profile compressed once", async () => {
    const expected = await write(streamed);
    expect(expected.toString('latin1')).toMatch(/\/OutputIntents \[\d+ 0 R\]/);
    expect(expected.toString('latin1')).toContain('/DestOutputProfile');
    const cached = (doc: PDFKit.PDFDocument) => {
      cacheOutputIntent(doc);
      return streamed(doc);
    };
    expect(await write(cached)).toEqual(expected);
    expect(await write(cached)).toEqual(expected);
  });

  it('answers a document that fails to finish with its error', async () => {
    const doc = new PDFDocument({ autoFirstPage: false, font: '' });
    const bytes = collectOutput(doc);
    doc.emit('error', new Error('disk full'));
    await expect(bytes).rejects.toThrow('disk full');
  });
});
