import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import PDFDocument from 'pdfkit';
import { describe, expect, it, vi } from 'vitest';
import { BoundedCache } from '../../core/caching/bounded-cache.js';
import { cacheEmbedding, type EmbeddedFont } from '../../core/billing/invoices/invoice-pdf-font-embed.js';
import { renderInvoicePdf } from '../../core/billing/invoices/invoice-pdf.js';
import { credit, english, typical } from '../support/invoice-documents.js';
import { extractPages, fontsOf } from '../support/pdf.js';

const fontFile = createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf');

/** A plain pdfkit document with one text, its font embedded by pdfkit or from the cache. */
async function plainPdf(text: string, cached: boolean): Promise<Buffer> {
  const doc = new PDFDocument({ font: '', info: { CreationDate: new Date('2026-11-03T00:00:00Z') } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => doc.on('end', resolve));
  doc.font(fontFile);
  if (cached) cacheEmbedding((doc as unknown as { _font: EmbeddedFont })._font);
  doc.fontSize(10).text(text, 50, 50);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

/** The decompressed font programs a PDF embeds. */
function fontPrograms(pdf: Buffer): Buffer[] {
  const raw = pdf.toString('latin1');
  return [...raw.matchAll(/\/FontFile2 (\d+) 0 R/g)].map(([, id]) => {
    const start = raw.indexOf('stream\n', raw.indexOf(`\n${id} 0 obj`)) + 'stream\n'.length;
    return inflateSync(pdf.subarray(start, raw.indexOf('\nendstream', start)));
  });
}

describe('invoice PDF fonts', () => {
  it("embeds a font from the cache with the same bytes as pdfkit's own embedding", async () => {
    for (const text of ['Zu zahlen 57,99 €', 'Łukasz Żółć – „Ωμέγα“ 𝔸']) {
      const expected = await plainPdf(text, false);
      expect(await plainPdf(text, true)).toEqual(expected);
      expect(await plainPdf(text, true)).toEqual(expected);
    }
  });

  it('renders the same bytes from warm caches as a fresh process would', async () => {
    const named = (name: string) => ({ ...typical, customer: { ...typical.customer, name } });
    // The same number of glyphs beyond the common ones, but others.
    for (const other of [english, credit, named('Zoë Ångström')]) await renderInvoicePdf(other);
    const warm = [await renderInvoicePdf(typical), await renderInvoicePdf(named('Zoå Ëngström'))];
    vi.resetModules();
    const fresh = await import('../../core/billing/invoices/invoice-pdf.js');
    expect(fresh.renderInvoicePdf).not.toBe(renderInvoicePdf);
    expect([await fresh.renderInvoicePdf(named('Zoå Ëngström')), await fresh.renderInvoicePdf(typical)]).toEqual(warm.reverse());
  });

  it('renders the same bytes in a prepared renderer (a render thread) as in an unprepared one', async () => {
    const fresh = async () => {
      vi.resetModules();
      return [await import('../../core/billing/invoices/invoice-pdf.js'), await import('../../core/billing/invoices/invoice-pdf-fonts.js')] as const;
    };
    const [unprepared] = await fresh();
    const expected = [await unprepared.renderInvoicePdf(typical), await unprepared.renderInvoicePdf(english)];
    const [prepared, fonts] = await fresh();
    expect(prepared.renderInvoicePdf).not.toBe(unprepared.renderInvoicePdf);
    fonts.prepareRenderer();
    expect([await prepared.renderInvoicePdf(typical), await prepared.renderInvoicePdf(english)]).toEqual(expected);
  });

  it('embeds the same subsets for documents that use only common characters', async () => {
    const one = fontPrograms(await renderInvoicePdf(typical));
    const other = fontPrograms(await renderInvoicePdf({ ...typical, customer: { ...typical.customer, name: 'Jürgen Quast-Öztürk' }, amountDue: '1234.56' }));
    expect(one).toHaveLength(2);
    expect(other).toEqual(one);
  });

  it('embeds characters beyond the common ones, and shows them', async () => {
    const name = 'Łukasz Żółć-Ωμέγα';
    const pdf = await renderInvoicePdf({ ...english, customer: { ...english.customer, name } });
    for (const font of fontsOf(pdf)) expect(font.embedded).toBe(true);
    expect((await extractPages(pdf)).join(' ')).toContain(name);
    const [regular] = fontPrograms(pdf);
    expect(regular!.length).toBeGreaterThan(fontPrograms(await renderInvoicePdf(english))[0]!.length);
    // A document using the common characters only still gets the shared subset afterwards.
    expect(fontPrograms(await renderInvoicePdf(credit))[0]).toEqual(fontPrograms(await renderInvoicePdf(typical))[0]);
  });

  it('bounds its caches, forgetting the oldest entries', () => {
    const cache = new BoundedCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.getOrSet('a', () => 0)).toBe(1);
    cache.set('c', 3);
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.getOrSet('c', () => 0)).toBe(3);
    expect(cache.getOrSet('d', () => 4)).toBe(4);
    expect(cache.get('b')).toBeUndefined();
  });

  it('forgets the oldest quarter of a full cache at once', () => {
    const cache = new BoundedCache<number>(8);
    for (let i = 1; i <= 8; i++) cache.set(`k${i}`, i);
    cache.set('k1', 10);
    expect(cache.size).toBe(8);
    cache.set('k9', 9);
    expect(cache.size).toBe(7);
    expect([cache.get('k1'), cache.get('k2')]).toEqual([undefined, undefined]);
    expect([3, 4, 5, 6, 7, 8, 9].map((i) => cache.get(`k${i}`))).toEqual([3, 4, 5, 6, 7, 8, 9]);
  });
});
