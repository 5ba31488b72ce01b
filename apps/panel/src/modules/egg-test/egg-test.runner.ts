import { randomUUID } from 'node:crypto';
import {
  EGG_TEST_LINES,
  EGG_TEST_STEPS,
  type EggTestRun,
  type EggTestStep,
  type EggTestStepName,
} from '@talon/shared/admin/egg-test-wire';
import type { AppContext } from '../../context.ts';
import type { Server } from '../../db/types.ts';
import { HttpError, ValidationFailed } from '../../http/errors.ts';
import { nowIso } from '../../lib/time.ts';
import type { ActivityActor } from '../activity/activity.service.ts';
import { ConsoleWatch } from './console-watch.ts';
import type { EggTestPlan } from './egg-test.plan.ts';

/** Limits of the throwaway server: enough for a game to boot, small enough for any node. */
const LIMITS = { memory: 1024, swap: 0, disk: 4096, io: 500, cpu: 0 };
/** How often the install state is read from the database (the daemon reports it to the panel). */
const INSTALL_POLL_MS = 250;
/** How long the done line may trail the `running` state it caused (the same daemon tick, normally). */
const DONE_LINE_MS = 2_000;
/** A console line longer than this is cut in the report. */
const LINE_CHARS = 500;

/**
 * Colour codes and every other control character: the report is plain text, and a line printed
 * by an egg must not move the cursor or retitle the terminal of the operator who reads it.
 */
const CONTROL =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])|[\x00-\x08\x0b-\x1f\x7f]/gu;

/** A step's failure: its message is what the report says. */
class StepFailed extends Error {}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** The egg's done texts and stop, as the daemon gets them (server-config.ts). */
function eggLifecycle(plan: EggTestPlan): { done: string[]; stop: string } {
  let done: string[] = [];
  try {
    const startup = JSON.parse(plan.egg.config_startup) as { done?: string | string[] };
    done = startup.done === undefined ? [] : [startup.done].flat();
  } catch {
    done = [];
  }
  return { done, stop: plan.egg.config_stop ?? '^C' };
}

function failure(e: unknown): string {
  if (e instanceof StepFailed) return e.message;
  if (e instanceof ValidationFailed) return e.failures.map((f) => f.detail).join(' ');
  if (e instanceof HttpError) return e.detail;
  return e instanceof Error ? e.message : String(e);
}

/**
 * One run of the egg test (issue 25): create a throwaway server of the egg, install it, start it
 * until the egg's done line, stop it with the egg's stop, and remove it, whatever happened before.
 * `execute` reports each step through `onChange` as it starts and ends (and with null once the run
 * is over); it never throws: a failure is the verdict.
 */
export class EggTestRunner {
  readonly run: EggTestRun;
  private current: EggTestStep | null = null;
  private startedAt = 0;

  constructor(
    private readonly ctx: AppContext,
    private readonly plan: EggTestPlan,
    private readonly actor: ActivityActor,
    private readonly onChange: (run: EggTestRun, step: EggTestStep | null) => void = () => undefined,
  ) {
    this.run = {
      id: randomUUID(),
      egg: plan.egg.id,
      node: plan.node.id,
      status: 'running',
      timeout: Math.round(plan.timeoutMs / 1000),
      started_at: nowIso(),
      finished_at: null,
      steps: EGG_TEST_STEPS.map((name) => ({
        name,
        status: 'pending',
        duration_ms: null,
        message: null,
        lines: [],
      })),
    };
  }

  async execute(): Promise<EggTestRun> {
    const { done, stop } = eggLifecycle(this.plan);
    const timeout = seconds(this.plan.timeoutMs);
    try {
      if (!(await this.step('create', () => this.createServer()))) return this.run;
      const server = this.server!;

      const installed = await this.step('install', async () => {
        this.watch = await ConsoleWatch.open(
          { config: this.ctx.config, daemon: this.daemon },
          this.plan.node,
          server,
          this.plan.owner,
          (line) => this.line(line),
        );
        const status = await this.installOutcome(server);
        if (status === 'installing') throw new StepFailed(`The install did not finish within ${timeout}.`);
        if (status !== null) throw new StepFailed('The install script failed: see its last lines.');
        return 'Installed.';
      });
      if (!installed) return this.run;
      const w = this.watch!;

      const started = await this.step('start', async () => {
        const from = w.states.length;
        await this.daemon.power(this.plan.node, server.uuid, 'start');
        const ended = await w.until(
          () => w.state === 'running' || stoppedAfterStarting(w.states.slice(from)),
          this.plan.timeoutMs,
        );
        if (w.state === 'running') {
          // The daemon reports `running` just before the line that matched: keep it in this step.
          await w.until(() => w.linesSinceStatus > 0, DONE_LINE_MS);
          return `Running: the done line ${quoteList(done)} appeared.`;
        }
        if (ended)
          throw new StepFailed(`The server stopped before its done line ${quoteList(done)} appeared.`);
        if (this.stopping) throw new StepFailed(`The test was ended: ${this.stopping}.`);
        if (w.closed) throw new StepFailed(`The console connection ended: ${w.closed}.`);
        throw new StepFailed(`The done line ${quoteList(done)} did not appear within ${timeout}.`);
      });
      if (!started) return this.run;

      await this.step('stop', async () => {
        if (w.state !== 'running')
          throw new StepFailed(`The server was no longer running (${w.state}) when it was to be stopped.`);
        await this.daemon.power(this.plan.node, server.uuid, 'stop');
        const stopped = await w.until(() => w.state === 'offline', this.plan.timeoutMs);
        if (stopped) return `Stopped by ${describeStop(stop)}.`;
        if (this.stopping) throw new StepFailed(`The test was ended: ${this.stopping}.`);
        if (w.closed) throw new StepFailed(`The console connection ended: ${w.closed}.`);
        throw new StepFailed(`The server was still running ${timeout} after ${describeStop(stop)}.`);
      });
      return this.run;
    } finally {
      this.watch?.close();
      // Steps that never ran are skipped before the removal, so the report reads in step order.
      for (const name of EGG_TEST_STEPS) if (name !== 'remove') this.skip(name);
      if (this.server) await this.remove(this.server);
      this.finish();
    }
  }

  private server: Server | null = null;
  private watch: ConsoleWatch | null = null;
  private stopping: string | null = null;

  /**
   * Ends the step under way at once with `why` (the panel is stopping); the server is still
   * removed. A run in its removal finishes it.
   */
  abort(why: string): void {
    this.stopping = why;
    this.watch?.close(why);
  }

  private get daemon() {
    return this.ctx.services.servers.daemonClient;
  }

  private async createServer(): Promise<string> {
    const { egg, node, allocation, environment, owner } = this.plan;
    const image = Object.values(JSON.parse(egg.docker_images) as Record<string, string>)[0] ?? '';
    this.server = await this.ctx.services.serverCreation.create(
      {
        name: `Egg test: ${egg.name}`.slice(0, 191),
        description: 'A throwaway server of the egg test runner: it is removed when the test ends.',
        user: owner.id,
        egg: egg.id,
        docker_image: image,
        startup: egg.startup,
        environment,
        limits: LIMITS,
        feature_limits: { databases: 0, allocations: 0, backups: 0 },
        allocation: { default: allocation },
        start_on_completion: false,
      },
      this.actor,
    );
    return `Server ${this.server.uuid_short} on node "${node.name}".`;
  }

  /** The server's status once it is no longer installing (null: installed), or `installing` after the timeout. */
  private async installOutcome(server: Server): Promise<string | null> {
    const deadline = Date.now() + this.plan.timeoutMs;
    for (;;) {
      const row = await this.ctx.repositories.servers.findById(server.id);
      if (!row) throw new StepFailed('The server was deleted while it installed.');
      if (row.status !== 'installing') return row.status;
      if (this.stopping) throw new StepFailed(`The test was ended: ${this.stopping}.`);
      if (Date.now() >= deadline) return 'installing';
      await new Promise((r) => setTimeout(r, INSTALL_POLL_MS));
    }
  }

  private async remove(server: Server): Promise<void> {
    await this.step('remove', async () => {
      const row = await this.ctx.repositories.servers.findById(server.id);
      if (!row) return 'The server was already gone.';
      // Forced: a daemon that cannot be reached must not leave the throwaway server in the panel.
      await this.ctx.services.serverManagement.delete(row, true, this.actor);
      return 'Removed the server and its files.';
    });
  }

  /** Runs one step: true when it passed. Its time runs from here to its end. */
  private async step(name: EggTestStepName, work: () => Promise<string>): Promise<boolean> {
    const step = this.run.steps.find((s) => s.name === name)!;
    step.status = 'running';
    step.duration_ms = 0;
    this.current = step;
    this.startedAt = Date.now();
    this.onChange(this.run, step);
    try {
      if (this.stopping && name !== 'remove') throw new StepFailed(`The test was ended: ${this.stopping}.`);
      step.message = await work();
      step.status = 'passed';
    } catch (e) {
      step.message = failure(e);
      step.status = 'failed';
    }
    step.duration_ms = Date.now() - this.startedAt;
    this.current = null;
    this.onChange(this.run, step);
    return step.status === 'passed';
  }

  private line(raw: string): void {
    const step = this.current;
    if (!step) return;
    const text = raw.replace(CONTROL, '');
    step.lines.push(text.length > LINE_CHARS ? `${text.slice(0, LINE_CHARS)}…` : text);
    if (step.lines.length > EGG_TEST_LINES) step.lines.splice(0, step.lines.length - EGG_TEST_LINES);
    step.duration_ms = Date.now() - this.startedAt;
  }

  private skip(name: EggTestStepName): void {
    const step = this.run.steps.find((s) => s.name === name)!;
    if (step.status === 'pending') step.status = 'skipped';
  }

  /** Steps that never ran are skipped; the run passed only if every step did. */
  private finish(): void {
    for (const name of EGG_TEST_STEPS) this.skip(name);
    this.run.status = this.run.steps.every((s) => s.status === 'passed') ? 'passed' : 'failed';
    this.run.finished_at = nowIso();
    this.onChange(this.run, null);
  }
}

/** `stopping` or `offline` after `starting` (a game that exits during boot; a crash restart may follow). */
function stoppedAfterStarting(states: string[]): boolean {
  const starting = states.indexOf('starting');
  return starting !== -1 && states.slice(starting + 1).some((s) => s === 'offline' || s === 'stopping');
}

function quoteList(done: string[]): string {
  if (done.length === 0) return '(any line)';
  return done.map((d) => `"${d}"`).join(' or ');
}

function describeStop(stop: string): string {
  return stop.startsWith('^') ? `the signal ${stop}` : `the stop command "${stop}"`;
}
