import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';

/** The timers the supervisor uses; tests pass a clock they advance by hand. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface SupervisorLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface SupervisorOptions {
  /** Starts one instance of the child. */
  spawn: () => ChildProcess;
  log: SupervisorLog;
  /** What the logs call the child. */
  name: string;
  clock?: Clock;
  /** First restart delay; doubled after each unexpected exit up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** A child that stayed up this long counts as healthy: the next restart waits `initialDelayMs` again. */
  stableAfterMs?: number;
  /** How long `stop()` waits after SIGTERM before it sends SIGKILL. */
  killAfterMs?: number;
  /** Words for an exit status the child uses to say why it stopped (logged as `reason`). */
  explainExit?: (code: number | null) => string | undefined;
}

export interface ExitReport {
  pid: number | undefined;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** the delay before the next start; null when the exit was asked for by `stop()` */
  restartInMs: number | null;
}

/**
 * Keeps one child process running: when it exits on its own, the reason is logged and it is
 * started again after an exponential back-off (so a daemon that dies at boot does not spin).
 * `stop()` ends it with SIGTERM, then SIGKILL after a bound, and never restarts it.
 *
 * Events: `spawn` (child), `exit` (ExitReport).
 */
export class Supervisor extends EventEmitter {
  private current: ChildProcess | null = null;
  private startedAt = 0;
  private failures = 0;
  private restartTimer: unknown = null;
  private stopping: Promise<void> | null = null;
  private readonly clock: Clock;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly stableAfterMs: number;
  private readonly killAfterMs: number;

  constructor(private readonly opts: SupervisorOptions) {
    super();
    this.clock = opts.clock ?? systemClock;
    this.initialDelayMs = opts.initialDelayMs ?? 1000;
    this.maxDelayMs = opts.maxDelayMs ?? 60_000;
    this.stableAfterMs = opts.stableAfterMs ?? 60_000;
    this.killAfterMs = opts.killAfterMs ?? 12_000;
  }

  /** The running child, if any. */
  get child(): ChildProcess | null {
    return this.current;
  }

  start(): void {
    if (this.stopping || this.current) return;
    const child = this.opts.spawn();
    this.current = child;
    this.startedAt = this.clock.now();
    // A spawn failure (missing binary…) arrives as 'error' and, when the process never ran, no
    // 'exit': handle both through one path so the back-off applies either way.
    let settled = false;
    const onEnd = (code: number | null, signal: NodeJS.Signals | null, err?: Error) => {
      if (settled) return;
      settled = true;
      this.exited(child, code, signal, err);
    };
    child.once('exit', (code, signal) => onEnd(code, signal));
    child.once('error', (err) => {
      if (child.pid === undefined) onEnd(null, null, err);
      else this.opts.log.error({ err, pid: child.pid }, `${this.opts.name}: process error`);
    });
    this.opts.log.info({ pid: child.pid }, `${this.opts.name} started`);
    this.emit('spawn', child);
  }

  private exited(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null, err?: Error) {
    if (this.current === child) this.current = null;
    if (this.stopping) {
      this.emit('exit', { pid: child.pid, code, signal, restartInMs: null } satisfies ExitReport);
      return;
    }
    if (this.clock.now() - this.startedAt >= this.stableAfterMs) this.failures = 0;
    const delay = Math.min(this.initialDelayMs * 2 ** this.failures, this.maxDelayMs);
    this.failures++;
    const reason = this.opts.explainExit?.(code);
    this.opts.log.error(
      { pid: child.pid, code, signal, err, restartInMs: delay },
      reason
        ? `${this.opts.name} could not run: ${reason}`
        : `${this.opts.name} exited unexpectedly; starting it again`,
    );
    this.restartTimer = this.clock.setTimeout(() => {
      this.restartTimer = null;
      this.start();
    }, delay);
    this.emit('exit', { pid: child.pid, code, signal, restartInMs: delay } satisfies ExitReport);
  }

  /** Stops the child for good: SIGTERM, SIGKILL after `killAfterMs`; resolves once it is gone. */
  stop(): Promise<void> {
    this.stopping ??= this.terminate();
    return this.stopping;
  }

  private async terminate(): Promise<void> {
    if (this.restartTimer !== null) this.clock.clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const child = this.current;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const killer = this.clock.setTimeout(() => {
        this.opts.log.error({ pid: child.pid }, `${this.opts.name} did not stop in time; killing it`);
        child.kill('SIGKILL');
      }, this.killAfterMs);
      child.once('exit', () => {
        this.clock.clearTimeout(killer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }
}
