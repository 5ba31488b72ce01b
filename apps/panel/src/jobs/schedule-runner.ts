import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../context.ts';
import type { Schedule, Task } from '../db/types.ts';
import { cronOf } from '../modules/schedules/schedule-cron.ts';
import { ScheduleClaims } from './schedule-claims.ts';
import { isRunning, runTask, TaskRefused } from './schedule-task.ts';

type RunnerContext = Pick<AppContext, 'db' | 'repositories' | 'services' | 'config' | 'log'>;

export interface RunnerOptions {
  /** how often due schedules are looked for and held leases renewed */
  tickMs: number;
  /** how long a claim holds past its last renewal */
  leaseMs: number;
  /** runs claimed per tick at most (the rest wait for the next tick or another panel) */
  batch?: number;
  /** the clock (tests move it) */
  now?: () => Date;
}

/**
 * The schedule runner of one panel. Each tick claims the due runs in the database (see
 * ScheduleClaims: with several panels on one database each run goes to one of them) and runs their
 * tasks in sequence order, each after its `time_offset`. A run records each task as started before
 * sending it, so a run taken over after its panel died carries on with the next task instead of
 * starting again. A run missed while no panel was up is claimed once at the next tick and
 * `next_run_at` moves to the first cron time after now, so it is not repeated per missed minute.
 */
export class ScheduleRunner {
  readonly token = randomUUID();
  private readonly claims: ScheduleClaims;
  private readonly runs = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<number> | null = null;
  private unsubscribe: (() => void) | null = null;
  private stopped = false;
  private readonly now: () => Date;

  constructor(
    private readonly ctx: RunnerContext,
    private readonly opts: RunnerOptions,
  ) {
    this.claims = new ScheduleClaims(ctx.db.db);
    this.now = opts.now ?? (() => new Date());
  }

  /** Ticks now and every `tickMs`; a Run Now on this panel ticks at once. */
  start(): void {
    const tick = () =>
      void this.tick().catch((err: unknown) => this.ctx.log.warn({ err }, 'schedule tick failed'));
    this.timer = setInterval(tick, this.opts.tickMs);
    this.timer.unref();
    this.unsubscribe = this.ctx.services.schedules.onRunRequested(tick);
    tick();
  }

  /**
   * One tick: renews the leases of the runs in progress here, then claims due runs and starts them
   * (not waiting for them: `idle()` does). Answers how many runs it claimed. Concurrent calls share
   * one tick.
   */
  tick(): Promise<number> {
    if (this.stopped) return Promise.resolve(0);
    this.ticking ??= this.claimAndStart().finally(() => (this.ticking = null));
    return this.ticking;
  }

  /** Resolves once every run this runner started has ended. */
  async idle(): Promise<void> {
    while (this.runs.size > 0 || this.ticking) {
      await Promise.all([...this.runs, this.ticking]);
    }
  }

  /**
   * Stops: no more ticks; waits for the tasks being sent to finish, then hands the runs still in
   * progress over (their lease ends now, so another panel, or this one after a restart, carries them
   * on with their next task). `abrupt` leaves the leases as they are, as a panel that died would.
   */
  async stop(opts: { abrupt?: boolean } = {}): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.unsubscribe?.();
    this.abort.abort();
    if (opts.abrupt) return;
    await this.idle();
    await this.claims.abandon(this.token, this.now());
  }

  private async claimAndStart(): Promise<number> {
    const now = this.now();
    const leaseUntil = new Date(now.getTime() + this.opts.leaseMs);
    if (this.runs.size > 0) await this.claims.renew(this.token, leaseUntil);
    const claimed = await this.claims.claimDue(this.token, now, leaseUntil, this.opts.batch ?? 100);
    for (const schedule of claimed) {
      const run: Promise<void> = this.run(schedule)
        .catch((err: unknown) => this.ctx.log.warn({ err, schedule: schedule.id }, 'schedule run failed'))
        .finally(() => this.runs.delete(run));
      this.runs.add(run);
    }
    return claimed.length;
  }

  private logRefusal(schedule: Schedule, task: Task, reason: string): Promise<void> {
    return this.ctx.services.activity.log(
      'server:task.skipped',
      { userId: null, apiKeyId: null, ip: null },
      [
        { type: 'server', id: schedule.server_id },
        { type: 'schedule', id: schedule.id },
      ],
      { name: schedule.name, action: task.action, payload: task.payload, reason },
    );
  }

  private async run(schedule: Schedule): Promise<void> {
    const { id } = schedule;
    const log = this.ctx.log.child({ schedule: id });
    const started = this.now();
    // Due (or missed while every panel was down): the next run is the first cron time after now.
    if (schedule.next_run_at === null || schedule.next_run_at <= started.toISOString()) {
      await this.claims.setNextRun(
        id,
        this.token,
        this.ctx.services.schedules.nextRun(cronOf(schedule), started),
      );
    }
    if (schedule.run_position === 0 && schedule.only_when_online === 1) {
      const server = await this.ctx.repositories.servers.findById(schedule.server_id);
      if (!server || !(await isRunning(this.ctx, server))) {
        log.debug('server not running: run skipped (only when online)');
        await this.claims.finish(id, this.token, this.now(), false);
        return;
      }
    }
    let position = schedule.run_position;
    for (;;) {
      const tasks = await this.ctx.repositories.schedules.tasksOf([id]);
      const task = tasks.find((t) => t.sequence_id > position);
      if (!task) break;
      if (task.time_offset > 0) {
        try {
          await sleep(task.time_offset * 1000, undefined, { signal: this.abort.signal });
        } catch {
          return; // stopping: the run is handed over with its position
        }
      }
      if (this.stopped) return;
      if (!(await this.claims.advance(id, this.token, task.sequence_id))) {
        log.info('the run was taken over or ended elsewhere; stopping here');
        return;
      }
      position = task.sequence_id;
      try {
        await runTask(this.ctx, task, schedule.server_id);
      } catch (err) {
        log.info({ err, task: task.id, action: task.action }, 'scheduled task failed');
        // A refused task is not run; it counts as failed (continue_on_failure decides), and the
        // server's activity log says why.
        if (err instanceof TaskRefused) await this.logRefusal(schedule, task, err.message);
        if (task.continue_on_failure !== 1) break;
      }
    }
    await this.claims.finish(id, this.token, this.now(), true);
  }
}

/** Starts the runner of this panel (main.ts); the returned function stops it. */
export function startScheduleRunner(ctx: RunnerContext): () => Promise<void> {
  const runner = new ScheduleRunner(ctx, {
    tickMs: ctx.config.schedules.tickSeconds * 1000,
    leaseMs: ctx.config.schedules.leaseSeconds * 1000,
  });
  runner.start();
  return () => runner.stop();
}
