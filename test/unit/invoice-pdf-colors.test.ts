import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { cacheColors } from '../../core/billing/invoices/invoice-pdf-colors.js';

/** A page's content with colours set as hex (long and short), as arrays and by name, for fill and stroke, each more than once. */
function draw(cached: boolean): Promise<string> {
  const doc = new PDFDocument({ compress: false, info: { CreationDate: new Date('2026-11-03T00:00:00Z') } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<string>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks).toString('latin1'))));
  if (cached) cacheColors(doc);
  for (const round of [1, 2]) {
    doc.fillColor('#1f4e79').rect(10, 10 * round, 5, 5).fill();
    doc.strokeColor('#1f4e79').moveTo(0, 0).lineTo(10, 10 * round).stroke();
    doc.fillColor('#abc', 0.5).rect(20, 10 * round, 5, 5).fill();
    doc.fillColor([10, 20, 30]).rect(30, 10 * round, 5, 5).fill();
    doc.fillColor('red').rect(40, 10 * round, 5, 5).fill();
  }
  doc.end();
  return ended;
}

describe('invoice PDF colours', () => {
  it("sets colours with pdfkit's operators, first and again", async () => {
    const expected = await draw(false);
    expect(expected).toContain('0.12156862745098039 0.3058823529411765 0.4745098039215686 scn');
    expect(expected).toContain('0.12156862745098039 0.3058823529411765 0.4745098039215686 SCN');
    expect(await draw(true)).toBe(expected);
    expect(await draw(true)).toBe(expected);
  });
});
