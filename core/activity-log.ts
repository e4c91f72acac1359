/**
 * Where use cases tell operators what they did (bill-run phases, progress, failures). The
 * composition root passes its structured logger, which has this shape; the CLI passes none,
 * so its stdout stays one JSON document.
 */
export interface ActivityLog {
  info(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export const silentLog: ActivityLog = { info: () => {}, error: () => {} };
