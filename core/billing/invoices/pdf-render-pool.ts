import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
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

/** What a thread is started with. */
export interface ThreadOptions {
  /** How many specimen invoices it renders before it reports ready (warmUpRenderer), fewer if a document comes first. */
  warmUpDocuments: number;
}

/** Renders in the calling thread (PDF_RENDER_THREADS=0). */
export const renderInThisThread: PdfRenderer = { render: renderInvoicePdf, prepare: async () => {}, close: async () => {} };

interface Task extends RenderRequest {
  resolve(pdf: Buffer): void;
  reject(error: Error): void;
}

let threadHeapsKept = false;

/**
 * Render threads keep the heap they have grown: V8's memory reducer is off for them. It shrinks a
 * thread's heap to what it holds live (27 MB from 109 MB after 200 documents) once the thread has
 * waited idle for some seconds, as render threads do between bill runs, and each run then began
 * with a heap too small for rendering: a young collection every few documents and a full one every
 * hundred or so, until the heap had grown again. Measured with two threads rendering 1,000 bill-run
 * invoices after 15 s idle: 117–123 young and 7–11 full collections with the reducer, 25–28 and 3–5
 * without, and a sixth less CPU time (the median of 14 and 16 runs: 6.34 and 5.28 ms per invoice).
 * The price is memory: the process held 700–750 MB once idle again instead of 290–400 MB. V8
 * creates an isolate's memory reducer when it sets up the heap, so the flag, the process's, reaches
 * the threads started after it and leaves the process's own heap as it was.
 */
function keepThreadHeaps(): void {
  if (threadHeapsKept) return;
  setFlagsFromString('--no-memory-reducer');
  threadHeapsKept = true;
}

/**
 * The pool's thread. Compiled, it is the worker file next to this one; run from TypeScript sources
 * (tsx, vitest) the thread first registers tsx, since a worker does not inherit a loader hook.
 */
function startThread(workerData: ThreadOptions): Worker {
  keepThreadHeaps();
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./invoice-pdf.worker.js', import.meta.url), { workerData });
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href;
  const entry = new URL('./invoice-pdf.worker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then(({ register }) => (register(), import(${JSON.stringify(entry)})));`;
  return new Worker(bootstrap, { eval: true, workerData });
}

/**
 * How many documents a thread is given ahead: it renders the next one while the calling thread
 * is busy with other work (a bill run's statements, its e-invoices) and reads the result later,
 * instead of waiting idle for the next document after each one.
 */
export const DOCUMENTS_IN_FLIGHT_PER_THREAD = 8;

/**
 * Renders on up to `threads` worker threads, up to DOCUMENTS_IN_FLIGHT_PER_THREAD documents per
 * thread at a time, each thread started when first needed or asked to prepare. Rendering is CPU
 * work of some 4–13 ms per invoice, by machine; on its own threads it runs beside the bill run's
 * database work instead of after it. A thread takes a few hundred milliseconds of CPU to start
 * (loading the renderer and its fonts), which `prepare` moves to before the first document. A thread
 * with nothing to do does not keep the process alive.
 */
export class PdfRenderPool implements PdfRenderer {
  /** Per started thread, the documents it was given, in the order it answers them. */
  private readonly inFlight = new Map<Worker, Task[]>();
  private readonly queue: Task[] = [];
  /** Per started thread: resolves once it has loaded the renderer, or has failed or exited. */
  private readonly readiness = new Map<Worker, Promise<void>>();

  /**
   * `warmUpDocuments`: how many specimen invoices each thread renders when it starts (warmUpRenderer);
   * a document given to it meanwhile ends its warm-up after the specimen at hand.
   */
  constructor(
    private readonly threads: number,
    private readonly warmUpDocuments = 0,
  ) {}

  render(document: InvoiceDocument, eInvoice?: InvoicePdfEInvoice): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      this.queue.push({ document, eInvoice, resolve, reject });
      this.dispatch();
    });
  }

  async prepare(): Promise<void> {
    while (this.inFlight.size < this.threads) this.start();
    // Starting threads keep the process alive until they are ready, so that awaiting this is enough.
    await Promise.all(this.readiness.values());
    for (const [thread, tasks] of this.inFlight) if (tasks.length === 0) thread.unref();
  }

  async close(): Promise<void> {
    const threads = [...this.inFlight.keys()];
    await Promise.all(threads.map((thread) => thread.terminate()));
  }

  /** Gives queued documents to the least busy thread with room, starting threads while all have work. */
  private dispatch(): void {
    while (this.queue.length > 0) {
      let thread: Worker | undefined;
      let fewest = DOCUMENTS_IN_FLIGHT_PER_THREAD;
      for (const [candidate, tasks] of this.inFlight) {
        if (tasks.length < fewest) [thread, fewest] = [candidate, tasks.length];
      }
      if ((!thread || fewest > 0) && this.inFlight.size < this.threads) [thread, fewest] = [this.start(), 0];
      if (!thread) return;
      const task = this.queue.shift()!;
      if (fewest === 0) thread.ref();
      this.inFlight.get(thread)!.push(task);
      thread.postMessage({ document: task.document, eInvoice: task.eInvoice } satisfies RenderRequest);
    }
  }

  private start(): Worker {
    const thread = startThread({ warmUpDocuments: this.warmUpDocuments });
    const tasks: Task[] = [];
    this.inFlight.set(thread, tasks);
    let ready!: () => void;
    this.readiness.set(thread, new Promise<void>((resolve) => (ready = resolve)));
    thread.on('message', (message: ThreadMessage) => {
      if ('ready' in message) return ready();
      const task = tasks.shift()!;
      if (tasks.length === 0) thread.unref();
      if (message.pdf) task.resolve(Buffer.from(message.pdf.buffer, message.pdf.byteOffset, message.pdf.byteLength));
      else task.reject(new Error(`Rendering the PDF failed: ${message.error}`));
      this.dispatch();
    });
    // A thread that fails to start or dies fails its documents; the next document starts another.
    thread.on('error', (error) => {
      ready();
      tasks.shift()?.reject(error);
    });
    thread.on('exit', (code) => {
      ready();
      this.readiness.delete(thread);
      this.inFlight.delete(thread);
      for (const task of tasks.splice(0)) task.reject(new Error(`The PDF render thread exited with code ${code}.`));
      this.dispatch();
    });
    return thread;
  }
}
