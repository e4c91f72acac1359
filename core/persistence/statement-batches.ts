/**
 * Parameter bytes per statement when documents are written. The pg driver copies a statement's
 * parameters into one buffer that grows by half whenever it is full, and then into the message it
 * sends: each byte is copied some seven times. Within a megabyte those copies stay in the
 * processor's caches; a batch of a hundred PDFs (5 MB) went through main memory each time.
 */
export const STATEMENT_PARAMETER_BYTES = 1_048_576;

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
