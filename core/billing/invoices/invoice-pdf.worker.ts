import { parentPort, workerData } from 'node:worker_threads';
import { prepareRenderer } from './invoice-pdf-fonts.js';
import { warmUpRenderer } from './invoice-pdf-warm-up.js';
import { renderInvoicePdf } from './invoice-pdf.js';
import type { RenderRequest, RenderResult, ThreadMessage, ThreadOptions } from './pdf-render-pool.js';

// Done before the first document, which waits in the port's queue meanwhile.
prepareRenderer();
await warmUpRenderer((workerData as ThreadOptions).warmUpDocuments);
parentPort!.postMessage({ ready: true } satisfies ThreadMessage);

/**
 * A PDF's bytes handed over rather than copied, when they fill a memory of their own (as a
 * document's tens of kilobytes do); a small buffer may share Node's pool with others and is copied.
 */
function transferable(pdf: Buffer): ArrayBuffer[] {
  return pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength && pdf.buffer instanceof ArrayBuffer ? [pdf.buffer] : [];
}

/** A thread of the PDF render pool: renders one document per message and answers its bytes or why not. */
parentPort!.on('message', async ({ document, eInvoice }: RenderRequest) => {
  let result: RenderResult;
  let transfer: ArrayBuffer[] = [];
  try {
    const pdf = await renderInvoicePdf(document, eInvoice);
    result = { pdf };
    transfer = transferable(pdf);
  } catch (error) {
    result = { error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(result, transfer);
});
