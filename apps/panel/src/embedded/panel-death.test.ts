import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { embeddedPanelEnv, freePort } from '../test-support/daemon.ts';
import { descendantsOf } from '../test-support/processes.ts';

// Issue 23 item 5: a panel killed with SIGKILL (OOM killer, `kill -9`) left its local daemon running
// as an orphan holding the daemon's ports, so the next panel's daemon crash-looped on EADDRINUSE.

const root = path.resolve(import.meta.dirname, '../../../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'talon-panel-death-'));
const leftovers: number[] = [];

afterAll(() => {
  for (const pid of leftovers) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone, as it should be
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** Running (a zombie waiting for a reaper that never comes counts as gone). */
const alive = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

async function until<T>(what: string, find: () => T | undefined, output: () => string): Promise<T> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('a panel killed with SIGKILL', () => {
  it('takes its local daemon with it: the daemon sees its pipe close and exits', async () => {
    // Below the ephemeral range and apart from the test daemons' (10000–17999) and browser tests' blocks.
    const allocation = 18_000 + Math.floor(Math.random() * 100) * 10;
    const daemonPort = await freePort();
    // The panel's entry point run by Node with tsx loaded, as `npm start` runs its bundle.
    const panel = spawn(process.execPath, ['--import', 'tsx', 'apps/panel/src/main.ts'], {
      cwd: root,
      env: await embeddedPanelEnv({ dataDir, allocation, daemonPort }),
    });
    let output = '';
    // The daemon writes to the panel's stdout, which it inherited: it is still read after the panel died.
    panel.stdout.on('data', (c: Buffer) => (output += c.toString()));
    panel.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const daemon = await until(
      'the local daemon',
      () =>
        descendantsOf(panel.pid!).find(
          (p) => p.cmdline.includes('apps/daemon/src/main.ts') && p.state !== 'Z',
        ),
      () => output,
    );
    leftovers.push(daemon.pid);
    await until(
      'the panel to listen',
      () => (output.includes('Panel listening on') ? true : undefined),
      () => output,
    );

    // Up and serving, so it takes the full way out (stop the servers, then exit), not the boot-time one.
    let answered = false;
    await until(
      'the daemon to answer',
      () => {
        void fetch(`http://127.0.0.1:${daemonPort}/api/system`).then(
          () => (answered = true),
          () => undefined,
        );
        return answered ? true : undefined;
      },
      () => output,
    );

    const panelExit = new Promise((r) => panel.once('exit', r));
    panel.kill('SIGKILL');
    await panelExit;
    await until(
      'the daemon to exit',
      () => (alive(daemon.pid) ? undefined : true),
      () => output,
    );
    expect(output).toContain('the panel that started this daemon is gone; stopping servers and exiting');
  }, 180_000);
});
