import fc from 'fast-check';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { cacheColors } from '../../core/billing/invoices/invoice-pdf-colors.js';

/** A page's content (its streams' text) with each colour set for fill (with an opacity) and for stroke, twice over. */
function draw(colors: ReadonlyArray<string | [number, number, number]>, cached: boolean): Promise<string> {
  const doc = new PDFDocument({ compress: false, info: { CreationDate: new Date('2026-11-03T00:00:00Z') } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const streams = () => [...Buffer.concat(chunks).toString('latin1').matchAll(/stream\n([^]*?)\nendstream/g)].map((match) => match[1]).join('\n');
  const ended = new Promise<string>((resolve) => doc.on('end', () => resolve(streams())));
  if (cached) cacheColors(doc);
  for (const round of [1, 2]) {
    for (const [i, color] of colors.entries()) {
      doc.fillColor(color, 0.5).rect(10 * i, 10 * round, 5, 5).fill();
      doc.strokeColor(color).moveTo(0, 0).lineTo(10 * i, 10 * round).stroke();
    }
  }
  doc.end();
  return ended;
}

/** pdfkit's two operators for an RGB colour: the colour space, then the components. */
const PDFKIT_COLOR = /\/DeviceRGB (cs|CS)\n([\d.]+) ([\d.]+) ([\d.]+) (scn|SCN)/g;

const hex = fc.oneof(
  fc.integer({ min: 0, max: 0xffffff }).map((n) => `#${n.toString(16).padStart(6, '0')}`),
  fc.integer({ min: 0, max: 0xfff }).map((n) => `#${n.toString(16).padStart(3, '0')}`),
);

describe('invoice PDF colours', () => {
  it('sets a hex colour with one rg (RG to stroke) whose components give the same 8-bit colour as pdfkit’s', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hex, { minLength: 1, maxLength: 4 }), async (colors) => {
        const pdfkit = await draw(colors, false);
        const components: string[][] = [];
        const expected = pdfkit.replace(PDFKIT_COLOR, (_, space: string, r: string, g: string, b: string) => {
          components.push([r, g, b]);
          return `${[r, g, b].map((c) => String(Math.round(Number(c) * 10_000) / 10_000)).join(' ')} ${space === 'cs' ? 'rg' : 'RG'}`;
        });
        expect(components).toHaveLength(4 * colors.length);
        const ours = await draw(colors, true);
        expect(ours).toBe(expected);
        const written = [...ours.matchAll(/([\d.]+) ([\d.]+) ([\d.]+) (rg|RG)/g)].map((match) => match.slice(1, 4));
        expect(written.map((rgb) => rgb.map((c) => Math.round(Number(c) * 255)))).toEqual(components.map((rgb) => rgb.map((c) => Math.round(Number(c) * 255))));
        expect(written.flat().every((c) => c.replace(/^\d\.?/, '').length <= 4)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it('leaves colours given otherwise (arrays, names) to pdfkit', async () => {
    const colors: Array<string | [number, number, number]> = [[10, 20, 30], 'red'];
    const pdfkit = await draw(colors, false);
    expect(pdfkit).toContain('/DeviceRGB cs\n1 0 0 scn');
    expect(await draw(colors, true)).toBe(pdfkit);
  });
});
