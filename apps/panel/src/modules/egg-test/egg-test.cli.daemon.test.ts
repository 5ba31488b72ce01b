// `npm run panel -- egg:test` (issue 25) as an operator runs it: a CLI process against a real panel
// (which receives the daemon's install report) and a real daemon with the process runtime, on the
// runner's own fixture eggs (packages/shared/test-fixtures/eggs/egg-test).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/types.ts';
import { startTestDaemon, type TestDaemon } from '../../test-support/daemon.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../../..');
const FIXTURES = path.join(ROOT, 'packages/shared/test-fixtures/eggs/egg-test');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const CLI = path.join(ROOT, 'apps/panel/src/cli/main.ts');

let panel: TestPanel;
let daemon: TestDaemon;
let admin: User;
const eggs: Record<string, number> = {};

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `egg:test` in a new process on the panel's database, as `npm run -s panel -- egg:test …`. */
function eggTest(...args: string[]): Promise<Run> {
  const env = {
    ...process.env,
    DATA_DIR: panel.ctx.config.dataDir,
    DATABASE_URL: panel.ctx.config.databaseUrl,
    APP_URL: panel.url,
    LOG_LEVEL: 'warn',
  };
  return new Promise((resolve) => {
    execFile(TSX, [CLI, 'egg:test', ...args], { cwd: ROOT, env, timeout: 100_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** The report's line of `step` (`ok  `, `FAIL` or `skip`, its name, its time, its message). */
function stepLine(out: string, step: string): string {
  return out.split('\n').find((l) => new RegExp(`^(ok  |FAIL|skip)  ${step}( |$)`, 'u').test(l)) ?? '';
}

async function serversLeft(): Promise<number> {
  const row = await panel.ctx.db.db
    .selectFrom('servers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

beforeAll(async () => {
  panel = await startTestPanel();
  daemon = await startTestDaemon(panel.ctx);
  admin = await panel.createUser({ admin: true });
  const nest = await panel.ctx.services.eggs.ensureNest('Egg tests', 'Fixtures of the egg test runner.');
  for (const name of ['passes', 'install-fails', 'never-done', 'ignores-stop']) {
    const text = readFileSync(path.join(FIXTURES, `egg-test-${name}.json`), 'utf8');
    eggs[name] = (await panel.ctx.services.eggs.importFile(text, nest.id)).egg.id;
  }
}, 120_000);

afterAll(async () => {
  await daemon?.stop();
  await panel?.close();
});

describe('egg:test', () => {
  it('passes an egg that installs, starts, stops; reports each step with its time and lines; removes the server', async () => {
    const run = await eggTest('--egg', String(eggs.passes), '--var', 'GREETING=from-the-test');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    for (const step of ['create', 'install', 'start', 'stop', 'remove'])
      expect(stepLine(run.stdout, step), run.stdout).toMatch(
        new RegExp(`^ok {4}${step} +\\d+\\.\\d s {2}\\S`, 'u'),
      );
    expect(run.stdout).toContain(`on node "${daemon.node.name}"`);
    expect(stepLine(run.stdout, 'start')).toContain('the done line "Ready for players" appeared');
    // The variable given on the command line reached the server; the console lines are in the report.
    expect(run.stdout).toMatch(/\| Ready for players on port \d+/u);
    expect(run.stdout).toContain('| Greeting: from-the-test');
    expect(stepLine(run.stdout, 'stop')).toContain('Stopped by the stop command "quit"');
    expect(run.stdout.trim().split('\n').at(-1)).toBe('PASS: every step passed.');
    expect(await serversLeft()).toBe(0);
    // The server's life is in the activity log like any other server's.
    const events = await panel.ctx.db.db
      .selectFrom('activity_logs')
      .select('event')
      .where('event', 'in', ['server:create', 'server:delete'])
      .execute();
    expect(events.map((e) => e.event).sort()).toEqual(['server:create', 'server:delete']);
  }, 120_000);

  it('takes the node by name and a root admin as owner; refuses an owner who is not one', async () => {
    const run = await eggTest(
      '--egg',
      String(eggs.passes),
      '--node',
      daemon.node.name,
      '--owner',
      admin.username,
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('| Greeting: hello');
    const player = await panel.createUser();
    const refused = await eggTest('--egg', String(eggs.passes), '--owner', player.username);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `egg:test: --owner must be a root admin; "${player.username}" is not one`,
    );
    expect(await serversLeft()).toBe(0);
  }, 120_000);

  it('fails at install when the install script fails, shows its last lines, skips the rest and still removes the server', async () => {
    const run = await eggTest('--egg', String(eggs['install-fails']), '--timeout', '60');
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(stepLine(run.stdout, 'create')).toMatch(/^ok /u);
    expect(stepLine(run.stdout, 'install')).toMatch(/^FAIL {2}install .*The install script failed/u);
    expect(run.stdout).toContain('| The download failed');
    expect(stepLine(run.stdout, 'start')).toMatch(/^skip/u);
    expect(stepLine(run.stdout, 'stop')).toMatch(/^skip/u);
    expect(stepLine(run.stdout, 'remove')).toMatch(/^ok /u);
    expect(run.stdout.trim().split('\n').at(-1)).toBe('FAIL: see the steps above.');
    expect(await serversLeft()).toBe(0);
  }, 120_000);

  it('fails at start when the done line never comes within --timeout, and removes the server', async () => {
    const run = await eggTest('--egg', String(eggs['never-done']), '--timeout', '3');
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(stepLine(run.stdout, 'install')).toMatch(/^ok /u);
    expect(stepLine(run.stdout, 'start')).toContain(
      'The done line "Ready for players" did not appear within 3 s.',
    );
    expect(run.stdout).toContain('| Still loading the world...');
    // The daemon's coloured notices arrive as plain text: no escape sequence reaches the terminal.
    expect(run.stdout).toContain('| [Talon Daemon]: ');
    expect(run.stdout).not.toContain('\x1b');
    expect(stepLine(run.stdout, 'stop')).toMatch(/^skip/u);
    expect(stepLine(run.stdout, 'remove')).toMatch(/^ok /u);
    expect(await serversLeft()).toBe(0);
  }, 120_000);

  it('reports a stop command the server ignores, and removes (kills) the server', async () => {
    const run = await eggTest('--egg', String(eggs['ignores-stop']), '--timeout', '3');
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(stepLine(run.stdout, 'start')).toMatch(/^ok /u);
    expect(stepLine(run.stdout, 'stop')).toContain(
      'The server was still running 3 s after the stop command "quit".',
    );
    expect(run.stdout).toContain('| Ignoring: quit');
    expect(stepLine(run.stdout, 'remove')).toMatch(/^ok /u);
    expect(await serversLeft()).toBe(0);
  }, 120_000);

  it('refuses bad input with the field and creates nothing', async () => {
    const unknownEgg = await eggTest('--egg', '999999');
    expect(unknownEgg.code).toBe(1);
    expect(unknownEgg.stderr).toContain('egg:test: The selected egg is invalid.');
    const badVar = await eggTest('--egg', String(eggs.passes), '--var', 'GREETING=');
    expect(badVar.code).toBe(1);
    expect(badVar.stderr).toMatch(/egg:test: The Greeting variable field is required\./u);
    const unknownVar = await eggTest('--egg', String(eggs.passes), '--var', 'NOPE=1');
    expect(unknownVar.stderr).toContain('egg:test: The egg has no variable NOPE.');
    const badTimeout = await eggTest('--egg', String(eggs.passes), '--timeout', 'soon');
    expect(badTimeout.stderr).toContain('egg:test: --timeout takes a number of seconds, not "soon"');
    expect(await serversLeft()).toBe(0);
  }, 120_000);
});
