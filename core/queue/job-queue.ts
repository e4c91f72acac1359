/** The one durable job queue: balancing, webhook deliveries and bill runs. */
export interface JobQueue {
  /**
   * Queues a job. Jobs with the same `key` coalesce: while one is waiting, another is not added
   * (its work is picked up by the waiting one), and one runs at a time per key.
   */
  enqueue(queue: string, data: object, key: string): Promise<void>;
  /** How many jobs of `key` the queue holds in each state (created, active, retry, failed, completed, …). */
  jobStates(queue: string, key: string): Promise<Record<string, number>>;
}

export type JobHandler<T> = (data: T) => Promise<void>;
