import {
  EGG_TEST_DEFAULT_TIMEOUT,
  EGG_TEST_MAX_TIMEOUT,
  type EggTestRun,
  type EggTestStep,
} from '@talon/shared/admin/egg-test-wire';
import type { AppContext } from '../context.ts';
import type { User } from '../db/types.ts';
import { planEggTest } from '../modules/egg-test/egg-test.plan.ts';
import { EggTestRunner } from '../modules/egg-test/egg-test.runner.ts';
import { CLI_ACTOR, CliError, idOf, optional, required, type Command } from './command.ts';
import { findNode } from './node-commands.ts';
import { findUser } from './user-commands.ts';

/** Lines shown under a step that passed; a failed step shows all it kept. */
const PASSED_LINES = 3;

/** The owner of the throwaway server: `--owner`, or the first root admin. */
async function ownerOf(ctx: AppContext, login: string | undefined): Promise<User> {
  if (login !== undefined) {
    const user = await findUser(ctx, login);
    if (!user.root_admin) throw new CliError(`--owner must be a root admin; "${login}" is not one`);
    return user;
  }
  const admin = await ctx.db.db
    .selectFrom('users')
    .selectAll()
    .where('root_admin', '=', 1)
    .orderBy('id')
    .executeTakeFirst();
  if (!admin) throw new CliError('no root admin to own the test server: create one with user:create --admin');
  return admin;
}

function variables(pairs: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of Array.isArray(pairs) ? pairs : []) {
    const text = String(pair);
    const at = text.indexOf('=');
    if (at < 1) throw new CliError(`--var takes KEY=VALUE, not "${text}"`);
    out[text.slice(0, at)] = text.slice(at + 1);
  }
  return out;
}

function printStep(step: EggTestStep): void {
  const mark = step.status === 'passed' ? 'ok  ' : step.status === 'failed' ? 'FAIL' : 'skip';
  const time = step.duration_ms === null ? '' : `${(step.duration_ms / 1000).toFixed(1)} s`;
  console.log(`${mark}  ${step.name.padEnd(8)} ${time.padStart(8)}  ${step.message ?? ''}`.trimEnd());
  const lines = step.status === 'failed' ? step.lines : step.lines.slice(-PASSED_LINES);
  for (const line of lines) console.log(`      | ${line}`);
}

/** `egg:test` (issue 25): the same runner as the admin egg page's Test button. */
export const eggTestCommands: Record<string, Command> = {
  'egg:test': {
    summary:
      'Test an egg: create a throwaway server, install, start until its done line, stop, remove (exit 0 when every step passed)',
    usage: '--egg ID [--node ID|NAME] [--var KEY=VALUE …] [--timeout SECONDS] [--owner U]',
    options: {
      egg: { type: 'string' },
      node: { type: 'string' },
      var: { type: 'string', multiple: true },
      timeout: { type: 'string' },
      owner: { type: 'string' },
    },
    help: {
      egg: 'the egg id (egg:list shows them)',
      node: 'a node id or name (default: the first node with a free allocation)',
      var: "a value of one of the egg's variables (the others keep their defaults); repeat for several",
      timeout: `seconds each wait (install, start, stop) may take, 1–${EGG_TEST_MAX_TIMEOUT} (default ${EGG_TEST_DEFAULT_TIMEOUT})`,
      owner: 'the root admin who owns the throwaway server (default: the first root admin)',
    },
    example: 'npm run -s panel -- egg:test --egg 7 --var SERVER_JARFILE=server.jar --timeout 600',
    async run(ctx, v) {
      const egg = idOf(required(v, 'egg'));
      if (!egg) throw new CliError('--egg takes a numeric egg id (egg:list shows them)');
      const node = v.node === undefined ? null : (await findNode(ctx, required(v, 'node'))).id;
      const timeout = optional(v, 'timeout');
      if (timeout !== undefined && idOf(timeout) === null)
        throw new CliError(`--timeout takes a number of seconds, not "${timeout}"`);
      const owner = await ownerOf(ctx, optional(v, 'owner'));
      const plan = await planEggTest(
        ctx,
        {
          egg,
          node,
          environment: variables(v.var),
          timeout: timeout === undefined ? null : Number(timeout),
        },
        owner,
      );
      console.log(
        `Testing egg ${plan.egg.id} "${plan.egg.name}" on node "${plan.node.name}" ` +
          `(each wait at most ${plan.timeoutMs / 1000} s); the panel must be running to receive the install report.`,
      );
      const printed = new Set<string>();
      const report = (run: EggTestRun) => {
        for (const step of run.steps) {
          if (step.status === 'pending' || step.status === 'running') break;
          if (printed.has(step.name)) continue;
          printed.add(step.name);
          printStep(step);
        }
      };
      const run = await new EggTestRunner(ctx, plan, CLI_ACTOR, report).execute();
      report(run);
      console.log(run.status === 'passed' ? 'PASS: every step passed.' : 'FAIL: see the steps above.');
      return run.status === 'passed' ? 0 : 1;
    },
  },
};
