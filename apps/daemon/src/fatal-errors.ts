import type { Logger } from 'pino';

/**
 * A failure nobody awaited is logged at fatal level and ends the process with exit code 1: a
 * daemon in an unknown state must not keep serving, and it must never die without a word. pino
 * writes synchronously (stdout is a file, pipe or terminal), so the line is out before the exit.
 */
export function logFatalErrors(log: Logger): void {
  process.on('uncaughtException', (err, origin) => {
    log.fatal({ err, origin }, 'uncaught exception; exiting');
    process.exit(1);
  });
  process.on('unhandledRejection', (reason) => {
    log.fatal({ err: reason }, 'unhandled promise rejection; exiting');
    process.exit(1);
  });
}
