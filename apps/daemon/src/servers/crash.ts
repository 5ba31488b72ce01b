import type { DaemonConfig } from '../config/config.ts';
import type { ExitInfo } from '../runtime/driver.ts';

export type CrashDecision =
  | { kind: 'ignore' }
  | { kind: 'disabled'; lines: string[] }
  | { kind: 'too-soon'; lines: string[] }
  | { kind: 'restart'; lines: string[] };

/**
 * What to do when a server stopped without being asked to (Wings protocol §8.3): a clean exit is a
 * crash unless the node says otherwise; a second crash within the timeout stays down.
 */
export function decideCrash(
  exit: ExitInfo,
  opts: {
    enabled: boolean;
    lastCrashAt: number | null;
    now: number;
    cfg: DaemonConfig['system']['crash_detection'];
  },
): CrashDecision {
  if (!opts.enabled)
    return {
      kind: 'disabled',
      lines: ['Aborting automatic restart, crash detection is disabled for this instance.'],
    };
  if (exit.code === 0 && !exit.oomKilled && !opts.cfg.detect_clean_exit_as_crash) return { kind: 'ignore' };
  const lines = [
    '---------- Detected server process in a crashed state! ----------',
    `Exit code: ${exit.code}`,
    `Out of memory: ${exit.oomKilled}`,
  ];
  const timeout = opts.cfg.timeout;
  if (timeout > 0 && opts.lastCrashAt !== null && opts.now - opts.lastCrashAt < timeout * 1000) {
    lines.push(`Aborting automatic restart, last crash occurred less than ${timeout} seconds ago.`);
    return { kind: 'too-soon', lines };
  }
  return { kind: 'restart', lines };
}
