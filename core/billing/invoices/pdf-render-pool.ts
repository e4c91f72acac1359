import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { InvoicePdfEInvoice } from './invoice-pdf-e-invoice.js';
import { renderInvoicePdf, type InvoiceDocument } from './invoice-pdf.js';

/** Renders invoice PDFs; the same document always yields the same bytes, wherever it is rendered. */
export interface PdfRenderer {
  render(document: InvoiceDocument, eInvoice?: InvoicePdfEInvoice): Promise<Buffer>;
  /**
   * Gets ready for documents that are about to come: a pool starts its threads and resolves once each
   * has loaded the renderer. Never rejects: a thread that fails to start fails the documents it is given.
   */
  prepare(): Promise<void>;
  close(): Promise<void>;
}

export interface RenderRequest {
  document: InvoiceDocument;
  eInvoice: InvoicePdfEInvoice | undefined;
}

export type RenderResult = { pdf: Uint8Array; error?: never } | { error: string; pdf?: never };

/** What a thread posts: that it has loaded the renderer (once, first), then one result per document. */
export type ThreadMessage = RenderResult | { ready: true };

/** Renders in the calling thread (PDF_RENDER_THREADS=0). */
export const renderInThisThread: PdfRenderer = { render: renderInvoicePdf, prepare: async () => {}, close: async () => {} };

interface Task extends RenderRequest {
  resolve(pdf: Buffer): void;
  reject(error: Error): void;
}

/**
 * The pool's thread. Compiled, it is the worker file next to this one; run from TypeScript sources
 * (tsx, vitest) the thread first registers tsx, since a worker does not inherit a loader hook.
 */
function startThread(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./invoice-pdf.worker.js', import.meta.url));
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href;
  const entry = new URL('./invoice-pdf.worker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then(({ register }) => (register(), import(${JSON.stringify(entry)})));`;
  return new Worker(bootstrap, { eval: true });
}

/**
 * Renders on up to `threads` worker threads, one document per thread at a time, started when first
 * needed or asked to prepare. Rendering is CPU work of some 4–13 ms per invoice, by machine; on its own threads it
 * runs beside the bill run's database work instead of after it. A thread takes a few hundred
 * milliseconds of CPU to start (loading the renderer and its fonts), which `prepare` moves to before
 * the first document. An idle thread does not keep the process alive.
 */
export class PdfRenderPool implements PdfRenderer {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Task>();
  private readonly queue: Task[] = [];
  /** Per started thread: resolves once it has loaded the renderer, or has failed or exited. */
  private readonly readiness = new Map<Worker, Promise<void>>();
  private threadCount = 0;

  constructor(private readonly threads: number) {}

  render(document: InvoiceDocument, eInvoice?: InvoicePdfEInvoice): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      this.queue.push({ document, eInvoice, resolve, reject });
      this.dispatch();
    });
  }

  async prepare(): Promise<void> {
    while (this.threadCount < this.threads) this.idle.push(this.start());
    // Starting threads keep the process alive until they are ready, so that awaiting this is enough.
    await Promise.all(this.readiness.values());
    for (const thread of this.idle) thread.unref();
  }

  async close(): Promise<void> {
    const threads = [...this.idle, ...this.busy.keys()];
    this.idle.length = 0;
    await Promise.all(threads.map((thread) => thread.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const thread = this.idle.pop() ?? (this.threadCount < this.threads ? this.start() : undefined);
      if (!thread) return;
      const task = this.queue.shift()!;
      this.busy.set(thread, task);
      thread.ref();
      thread.postMessage({ document: task.document, eInvoice: task.eInvoice } satisfies RenderRequest);
    }
  }

  private start(): Worker {
    const thread = startThread();
    this.threadCount++;
    let ready!: () => void;
    this.readiness.set(thread, new Promise<void>((resolve) => (ready = resolve)));
    thread.on('message', (message: ThreadMessage) => {
      if ('ready' in message) return ready();
      const result = message;
      const task = this.busy.get(thread)!;
      this.busy.delete(thread);
      thread.unref();
      this.idle.push(thread);
      if (result.pdf) task.resolve(Buffer.from(result.pdf.buffer, result.pdf.byteOffset, result.pdf.byteLength));
      else task.reject(new Error(`Rendering the PDF failed: ${result.error}`));
      this.dispatch();
    });
    // A thread that fails to start or dies fails its document; the next document starts another.
    thread.on('error', (error) => {
      ready();
      this.busy.get(thread)?.reject(error);
    });
    thread.on('exit', (code) => {
      ready();
      this.readiness.delete(thread);
      this.threadCount--;
      const idle = this.idle.indexOf(thread);
      if (idle >= 0) this.idle.splice(idle, 1);
      const task = this.busy.get(thread);
      this.busy.delete(thread);
      task?.reject(new Error(`The PDF render thread exited with code ${code}.`));
      this.dispatch();
    });
    return thread;
  }
}
