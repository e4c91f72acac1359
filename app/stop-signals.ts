/**
 * Takes SIGTERM and SIGINT from the moment it is called. Node ends a process at once on a signal
 * that has no listener, which would drop an embedded database instead of closing it: a signal that
 * comes while the process starts is kept until `started` hands over the shutdown, and runs it then.
 * Only the first signal counts.
 */
export function stopSignals(): { started(shutdown: (signal: string) => void): boolean; received: AbortSignal } {
  let received: string | null = null;
  let shutdown: ((signal: string) => void) | null = null;
  const signalled = new AbortController();
  const onSignal = (signal: string) => {
    if (received) return;
    received = signal;
    signalled.abort();
    shutdown?.(signal);
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  return {
    /** Aborted by the first signal, for a start that can give up (a worker warming up its render threads). */
    received: signalled.signal,
    /** Hands over the shutdown; answers whether a signal came while starting (the shutdown has begun). */
    started(handler) {
      shutdown = handler;
      if (received) handler(received);
      return received !== null;
    },
  };
}
