/** The one durable job queue (balancing today; webhooks and bill runs later). */
export interface JobQueue {
  /**
   * Queues a job. Jobs with the same `key` coalesce: while one is waiting, another is not added
   * (its work is picked up by the waiting one), and one runs at a time per key.
   */
  enqueue(queue: string, data: object, key: string): Promise<void>;
}

export type JobHandler<T> = (data: T) => Promise<void>;
