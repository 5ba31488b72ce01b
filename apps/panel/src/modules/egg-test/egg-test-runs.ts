import type { EggTestRun } from '@talon/shared/admin/egg-test-wire';
import type { AppContext } from '../../context.ts';
import type { ActivityActor } from '../activity/activity.service.ts';
import type { EggTestPlan } from './egg-test.plan.ts';
import { EggTestRunner } from './egg-test.runner.ts';

/** A finished run stays readable this long, for a page that polls it late. */
const KEEP_FINISHED_MS = 60 * 60_000;

/**
 * The egg tests started through the API in this panel process, by run id: the admin page polls a
 * run while it goes on. Kept in memory: a run belongs to the process that performs it.
 */
export class EggTestRuns {
  private readonly runs = new Map<string, { runner: EggTestRunner; done: Promise<unknown> }>();

  constructor(private readonly ctx: AppContext) {}

  /** Starts a run in the background and returns it as it is now (its first step running). */
  start(plan: EggTestPlan, actor: ActivityActor): EggTestRun {
    const runner = new EggTestRunner(this.ctx, plan, actor);
    const done = runner.execute().then(
      () => setTimeout(() => this.runs.delete(runner.run.id), KEEP_FINISHED_MS).unref(),
      (e: unknown) => this.ctx.log.error({ err: e, run: runner.run.id }, 'egg test failed unexpectedly'),
    );
    this.runs.set(runner.run.id, { runner, done });
    return runner.run;
  }

  get(id: string): EggTestRun | undefined {
    return this.runs.get(id)?.runner.run;
  }

  /** The panel is stopping: runs still going end their step now and remove their servers. */
  async settle(): Promise<void> {
    for (const { runner } of this.runs.values()) runner.abort('the panel is stopping');
    await Promise.all([...this.runs.values()].map((r) => r.done));
  }
}
