import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { renderInvoicePdf, type InvoiceDocument } from '../../core/billing/invoices/invoice-pdf.js';
import { DOCUMENTS_IN_FLIGHT_PER_THREAD, PdfRenderPool } from '../../core/billing/invoices/pdf-render-pool.js';
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

  it('renders on threads it prepared (and warmed up) before the documents came, and prepares no more threads than it may run', async () => {
    const prepared = new PdfRenderPool(2, 4);
    try {
      const internals = prepared as unknown as { inFlight: Map<unknown, unknown[]>; readiness: Map<unknown, Promise<void>> };
      await prepared.prepare();
      expect(internals.readiness.size).toBe(2);
      await prepared.prepare();
      const documents = [credit, transfer, credit];
      const pooled = await Promise.all(documents.map((document) => prepared.render(document)));
      for (const [index, document] of documents.entries()) expect(pooled[index]!.equals(await renderInvoicePdf(document)), `document ${index}`).toBe(true);
      expect(internals.inFlight.size).toBe(2);
    } finally {
      await prepared.close();
    }
  });

  it('renders a document that comes while its thread warms up after the specimen at hand, and ends the warm-up there', async () => {
    // The longest warm-up allowed: 10,000 specimens would keep the thread busy for a minute or more.
    const warming = new PdfRenderPool(1, 10_000);
    try {
      const pdf = await warming.render(credit);
      expect(pdf.equals(await renderInvoicePdf(credit))).toBe(true);
      await warming.prepare();
    } finally {
      await warming.close();
    }
  }, 20_000);

  it('does not keep a process alive with prepared threads that have nothing to do', async () => {
    const pool = new URL('../../core/billing/invoices/pdf-render-pool.ts', import.meta.url).href;
    const script = `const { PdfRenderPool } = await import(${JSON.stringify(pool)}); await new PdfRenderPool(2).prepare(); console.log('prepared');`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 20_000 });
    expect(stdout.trim()).toBe('prepared');
  }, 30_000);

  it('starts its threads without the memory reducer of V8, which would shrink their heaps whenever they wait idle', async () => {
    // V8 traces each isolate's memory reducer as it checks the heap, the first time some 200 ms
    // (the start delay given here) after the isolate's first full collection; a thread's isolate
    // has one during a warm-up of 200 specimens. Lines name the isolate's thread: 0 is the process's.
    const pool = new URL('../../core/billing/invoices/pdf-render-pool.ts', import.meta.url).href;
    const script = `
      const { PdfRenderPool } = await import(${JSON.stringify(pool)});
      const pool = new PdfRenderPool(2, 200);
      await pool.prepare();
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await pool.close();`;
    const flags = ['--trace-memory-reducer', '--gc-memory-reducer-start-delay-ms=200'];
    const { stdout } = await promisify(execFile)(process.execPath, [...flags, '--import', 'tsx', '--input-type=module', '-e', script], { timeout: 30_000 });
    const threads = new Set([...stdout.matchAll(/^\[\d+:0x[0-9a-f]+:(\d+)\] .*Memory reducer/gm)].map((line) => line[1]));
    expect(threads).toEqual(new Set(['0']));
  }, 40_000);

  it('gives each thread several documents ahead, answers each with its own PDF, and fails those a closed thread still had', async () => {
    const busy = new PdfRenderPool(2);
    const internals = busy as unknown as { inFlight: Map<unknown, unknown[]> };
    const documents = Array.from({ length: 2 * DOCUMENTS_IN_FLIGHT_PER_THREAD + 3 }, (_, i) => ({ ...typical, number: `INV-2026-${String(i + 1).padStart(6, '0')}` }));
    try {
      const rendering = documents.map((document) => busy.render(document));
      expect([...internals.inFlight.values()].map((tasks) => tasks.length)).toEqual([DOCUMENTS_IN_FLIGHT_PER_THREAD, DOCUMENTS_IN_FLIGHT_PER_THREAD]);
      const pooled = await Promise.all(rendering);
      for (const [index, document] of documents.entries()) expect(pooled[index]!.equals(await renderInvoicePdf(document)), `document ${index}`).toBe(true);
      const stopped = Promise.allSettled([credit, transfer, english].map((document) => busy.render(document)));
      await busy.close();
      for (const result of await stopped) expect(result).toMatchObject({ status: 'rejected', reason: { message: expect.stringMatching(/^The PDF render thread exited with code \d+\.$/) } });
    } finally {
      await busy.close();
    }
  });

  it('starts threads again after close', async () => {
    await pool.close();
    expect((await pool.render(credit)).equals(await renderInvoicePdf(credit))).toBe(true);
  });
});
