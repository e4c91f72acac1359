import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { renderInvoicePdf, type InvoiceDocument } from '../../core/billing/invoices/invoice-pdf.js';
import { PdfRenderPool } from '../../core/billing/invoices/pdf-render-pool.js';
import { credit, english, stornorechnung, transfer, typical } from '../support/invoice-documents.js';

describe('PdfRenderPool', () => {
  const pool = new PdfRenderPool(2);
  afterAll(() => pool.close());

  it('renders on its threads the same bytes as the calling thread, for more documents than threads at once', async () => {
    const documents = [typical, english, stornorechnung, transfer, credit, typical];
    const pooled = await Promise.all(documents.map((document) => pool.render(document)));
    for (const [index, document] of documents.entries()) expect(pooled[index]!.equals(await renderInvoicePdf(document)), `document ${index}`).toBe(true);
    const facturx = { format: 'facturx' as const, xml: '<rsm:CrossIndustryInvoice/>' };
    expect((await pool.render(typical, facturx)).equals(await renderInvoicePdf(typical, facturx))).toBe(true);
  });

  it('fails a document that cannot be rendered with the reason, and renders the next ones', async () => {
    const broken = { ...typical, locale: 'fr-FR' } as unknown as InvoiceDocument;
    await expect(pool.render(broken)).rejects.toThrow(/^Rendering the PDF failed: /);
    expect((await pool.render(typical)).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('renders on threads it prepared before the documents came, and prepares no more threads than it may run', async () => {
    const prepared = new PdfRenderPool(2);
    try {
      const internals = prepared as unknown as { threadCount: number; readiness: Map<unknown, Promise<void>> };
      await prepared.prepare();
      expect(internals.readiness.size).toBe(2);
      await prepared.prepare();
      const documents = [credit, transfer, credit];
      const pooled = await Promise.all(documents.map((document) => prepared.render(document)));
      for (const [index, document] of documents.entries()) expect(pooled[index]!.equals(await renderInvoicePdf(document)), `document ${index}`).toBe(true);
      expect(internals.threadCount).toBe(2);
    } finally {
      await prepared.close();
    }
  });

  it('does not keep a process alive with prepared threads that have nothing to do', async () => {
    const pool = new URL('../../core/billing/invoices/pdf-render-pool.ts', import.meta.url).href;
    const script = `const { PdfRenderPool } = await import(${JSON.stringify(pool)}); await new PdfRenderPool(2).prepare(); console.log('prepared');`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 20_000 });
    expect(stdout.trim()).toBe('prepared');
  }, 30_000);

  it('starts threads again after close', async () => {
    await pool.close();
    expect((await pool.render(credit)).equals(await renderInvoicePdf(credit))).toBe(true);
  });
});
