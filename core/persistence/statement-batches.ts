/**
 * Parameter bytes per statement when documents are written. The pg driver writes a statement's
 * message into a buffer that starts small for every statement and is copied into one half again
 * as large whenever it is full: each byte goes through memory about three times. Within a megabyte
 * those copies stay in the processor's caches; a round's hundred PDFs (5 MB) went through main
 * memory each time.
 */
const STATEMENT_PARAMETER_BYTES = 1_048_576;

/** Consecutive runs of `items` whose `bytes` add up to at most `limit` each (an item larger than `limit` alone). */
export function batchesOfBytes<T>(items: readonly T[], bytes: (item: T) => number, limit = STATEMENT_PARAMETER_BYTES): T[][] {
  const batches: T[][] = [];
  let batch: T[] = [];
  let size = 0;
  for (const item of items) {
    const itemBytes = bytes(item);
    if (batch.length > 0 && size + itemBytes > limit) {
      batches.push(batch);
      batch = [];
      size = 0;
    }
    batch.push(item);
    size += itemBytes;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
