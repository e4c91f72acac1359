import { parentPort, workerData } from 'node:worker_threads';
import { prepareRenderer } from './invoice-pdf-fonts.js';
import { keepSpecimens, warmUpRenderer } from './invoice-pdf-warm-up.js';
import { renderInvoicePdf } from './invoice-pdf.js';
import type { RenderRequest, RenderResult, ThreadMessage, ThreadOptions } from './pdf-render-pool.js';

// Done before the first document, which waits in the port's queue meanwhile.
prepareRenderer();

/** Whether a document has come: the warm-up gives way to it, and the documents after it warm the thread instead. */
let documentCame = false;

/**
 * A PDF's bytes handed over rather than copied, when they fill a memory of their own (as a
 * document's tens of kilobytes do); a small buffer may share Node's pool with others and is copied.
 */
function transferable(pdf: Buffer): ArrayBuffer[] {
  return pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength && pdf.buffer instanceof ArrayBuffer ? [pdf.buffer] : [];
}

/** A thread of the PDF render pool: renders one document per message and answers its bytes or why not. */
parentPort!.on('message', async ({ document, eInvoice }: RenderRequest) => {
  documentCame = true;
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

await keepSpecimens();
// One specimen per task: a document that comes meanwhile waits for one at most.
await warmUpRenderer((workerData as ThreadOptions).warmUpDocuments, renderInvoicePdf, () => documentCame);
parentPort!.postMessage({ ready: true } satisfies ThreadMessage);
