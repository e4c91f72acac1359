import type pg from 'pg';

/** Polls `condition` every 50 ms until it holds; throws naming `what` after `timeoutMs`. */
export async function waitFor(what: string, condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether a session of the database waits on a lock that `db`'s session holds. */
export async function blocksAnother(db: pg.Client): Promise<boolean> {
  return ((await db.query(`select 1 from pg_stat_activity where datname = current_database() and pg_backend_pid() = any(pg_blocking_pids(pid))`)).rowCount ?? 0) > 0;
}
