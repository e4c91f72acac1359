import { parentPort } from 'node:worker_threads';
import { prepareFonts } from './invoice-pdf-fonts.js';
import { renderInvoicePdf } from './invoice-pdf.js';
import type { RenderRequest, RenderResult } from './pdf-render-pool.js';

// Parsed while the thread waits for its first document.
prepareFonts();

/** A thread of the PDF render pool: renders one document per message and answers its bytes or why not. */
parentPort!.on('message', async ({ document, eInvoice }: RenderRequest) => {
  let result: RenderResult;
  try {
    result = { pdf: await renderInvoicePdf(document, eInvoice) };
  } catch (error) {
    result = { error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(result);
});
