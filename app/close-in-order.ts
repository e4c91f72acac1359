/**
 * Runs every shutdown step in order, each one even when an earlier one failed, then throws what
 * failed. A step that fails (a queue that does not stop cleanly under load, say) must not keep the
 * later ones from running: the last step closes the database, and an embedded database that is not
 * closed leaves its data directory claimed by a process that is gone.
 */
export async function closeInOrder(steps: ReadonlyArray<() => Promise<void>>): Promise<void> {
  const failures: unknown[] = [];
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, `${failures.length} shutdown steps failed`);
}
