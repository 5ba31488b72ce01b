import type { Logger } from 'pino';

/**
 * A rejection or exception nobody handled is logged through pino as fatal (so it lands where the
 * operator reads the panel's logs, with its stack) and ends the process with exit code 1: its state
 * is unknown, and a process manager starts it again.
 */
export function exitOnUnhandled(log: Logger): void {
  const fatal = (kind: string) => (err: unknown) => {
    log.fatal({ err }, kind);
    // pino writes to stdout synchronously by default; flush covers an asynchronous destination,
    // and the timer a destination that never answers.
    setTimeout(() => process.exit(1), 2000);
    log.flush(() => process.exit(1));
  };
  process.on('unhandledRejection', fatal('unhandled promise rejection'));
  process.on('uncaughtException', fatal('uncaught exception'));
}
