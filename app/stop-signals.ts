/**
 * Takes SIGTERM and SIGINT from the moment it is called. Node ends a process at once on a signal
 * that has no listener, which would drop an embedded database instead of closing it: a signal that
 * comes while the process starts is kept until `started` hands over the shutdown, and runs it then.
 * Only the first signal counts.
 */
export function stopSignals(): { started(shutdown: (signal: string) => void): boolean } {
  let received: string | null = null;
  let shutdown: ((signal: string) => void) | null = null;
  const onSignal = (signal: string) => {
    if (received) return;
    received = signal;
    shutdown?.(signal);
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  return {
    /** Hands over the shutdown; answers whether a signal came while starting (the shutdown has begun). */
    started(handler) {
      shutdown = handler;
      if (received) handler(received);
      return received !== null;
    },
  };
}
