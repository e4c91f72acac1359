import type { PGlite } from '@electric-sql/pglite';

/** One frontend message waiting in pglite-socket 0.2's query queue. */
interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  resolve(bytes: number): void;
  reject(error: unknown): void;
  onData(data: Uint8Array): void;
}

/** The fields of pglite-socket 0.2's QueryQueueManager that its loop uses; pglite-queue.test.ts guards them. */
export interface QueryQueue {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  db: Pick<PGlite, 'isInTransaction' | 'runExclusive' | 'execProtocolRawStream'>;
  processQueue(): Promise<void>;
  clearQueueForHandler(handlerId: number): void;
}

/** Messages after which the session holds nothing of the connection's: Sync, a simple Query, Terminate. */
const BATCH_ENDS = new Set([0x53, 0x51, 0x58]);

/** A startup message has no type byte; it begins with its length, whose first byte is 0. */
const endsBatch = (message: Uint8Array) => message.length === 0 || message[0] === 0 || BATCH_ENDS.has(message[0]!);

/**
 * pglite-socket 0.2 runs the messages of all connections one at a time on PGlite's single session
 * and keeps one connection's messages together only inside a transaction. An extended-protocol
 * batch (Parse, Bind, Execute, Sync) outside a transaction is not one, so two connections' batches
 * interleaved: the second Parse replaced the first's unnamed statement, and the first Bind failed
 * ("unnamed prepared statement does not exist", or bound to the other statement). This keeps a
 * connection's messages together until its batch ends as well, and goes on with the next message
 * after one fails (the library's loop stopped for good).
 */
export function keepBatchesTogether(queue: QueryQueue): void {
  let midBatch = false;
  const clear = queue.clearQueueForHandler.bind(queue);
  queue.clearQueueForHandler = (handlerId) => {
    clear(handlerId);
    if (queue.lastHandlerId === handlerId && midBatch) {
      midBatch = false;
      void queue.processQueue();
    }
  };
  queue.processQueue = async function processQueue(this: QueryQueue) {
    if (this.processing || this.queue.length === 0) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const pinned = (midBatch || this.db.isInTransaction()) && this.lastHandlerId !== null ? this.lastHandlerId : null;
        const index = pinned === null ? 0 : this.queue.findIndex((item) => item.handlerId === pinned);
        if (index === -1) break;
        const item = this.queue.splice(index, 1)[0]!;
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                item.onData(data);
              },
            }),
          );
        } catch (error) {
          midBatch = false;
          item.reject(error);
          continue;
        }
        this.lastHandlerId = item.handlerId;
        midBatch = !endsBatch(item.message);
        item.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  };
}
