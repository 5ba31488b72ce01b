import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GAME_JS, startStack, type Stack } from '../test-support/harness.ts';
import { ProcessDriver } from './process-driver.ts';

// Issue 23 item 1, replayed on a real daemon with bubblewrap, setpriv and cgroups (as root, as CI
// runs): a server variable named LD_PRELOAD once loaded a library into the host's `sh` and `bwrap`
// as uid 0, and every variable's value sat in the environment of those root processes.

/** A shared object whose constructor leaves a file named after the effective uid and the program. */
const PRELOAD_C = String.raw`
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
__attribute__((constructor)) static void talon_marker(void) {
  char comm[32] = "unknown";
  int f = open("/proc/self/comm", O_RDONLY);
  if (f >= 0) { ssize_t n = read(f, comm, sizeof comm - 1); if (n > 0) comm[n - 1] = 0; close(f); }
  const char *dirs[] = { MARKERS, "/home/container", "/mnt/server" };
  for (unsigned i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
    char p[600];
    snprintf(p, sizeof p, "%s/loaded-uid%d-%s-%d", dirs[i], (int)geteuid(), comm, (int)getpid());
    int fd = open(p, O_CREAT | O_WRONLY, 0644);
    if (fd >= 0) close(fd);
  }
}
`;

/** Every process whose argv or environment holds `needle`: pid, effective uid, program. */
async function processesHolding(needle: string): Promise<{ pid: number; uid: number; comm: string }[]> {
  const found: { pid: number; uid: number; comm: string }[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/u.test(entry)) continue;
    try {
      const [cmdline, environ, status] = await Promise.all([
        readFile(`/proc/${entry}/cmdline`),
        readFile(`/proc/${entry}/environ`),
        readFile(`/proc/${entry}/status`, 'utf8'),
      ]);
      if (!cmdline.includes(needle) && !environ.includes(needle)) continue;
      const uid = Number(/^Uid:\s+\d+\s+(\d+)/mu.exec(status)?.[1]);
      const comm = /^Name:\s+(.*)$/mu.exec(status)?.[1] ?? '?';
      found.push({ pid: Number(entry), uid, comm });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** The game's settings with `secret` as a variable, passed on its command line too. */
const seededSettings = (secret: string) => ({
  environment: { GAME_FILE: 'game.js', WORLD_SEED: secret },
  invocation: 'node {{GAME_FILE}} --seed {{WORLD_SEED}}',
});

/** `secret` is held by the running game and by no process of another uid. */
async function expectOnlyTheGameHolds(stack: Stack, secret: string): Promise<void> {
  const holders = await processesHolding(secret);
  // The game itself has it (the value was delivered)…
  expect(holders.some((p) => p.comm === 'node' && p.uid === stack.config.runtime.uid)).toBe(true);
  // …and nothing else: no bwrap, setpriv or shell of the daemon's, no process of another uid.
  expect(holders.filter((p) => p.uid !== stack.config.runtime.uid)).toEqual([]);
}

/** Kills the server behind `ws` and waits until it reports offline. */
async function killServer(ws: Awaited<ReturnType<Stack['startedWs']>>): Promise<void> {
  ws.send('set state', 'kill');
  await ws.waitFor((m) => m.event === 'status' && m.args?.[0] === 'offline', 10_000, ws.messages.length - 1);
}

let markers: string;
let library: string;
beforeAll(async () => {
  markers = await mkdtemp('/var/tmp/talon-preload-');
  // Anyone may leave a marker here: a load as any uid must be seen.
  await chmod(markers, 0o1777);
  await writeFile(path.join(markers, 'preload.c'), PRELOAD_C);
  library = path.join(markers, 'preload.so');
  execFileSync('gcc', [
    '-shared',
    '-fPIC',
    `-DMARKERS="${markers}"`,
    '-o',
    library,
    path.join(markers, 'preload.c'),
  ]);
  await chmod(library, 0o755);
});
afterAll(async () => {
  await rm(markers, { recursive: true, force: true });
});

const loadsIn = async (...dirs: string[]): Promise<string[]> =>
  (await Promise.all(dirs.map((d) => readdir(d)))).flat().filter((f) => f.startsWith('loaded-'));

// The driver alone, given LD_PRELOAD as if a name slipped past every list: the environment must
// take effect only in the payload, after the privilege drop, in either mode.
describe.each([
  { mode: 'bwrap', forceNoBwrap: false },
  { mode: 'unconfined', forceNoBwrap: true },
])('the process driver ($mode) with LD_PRELOAD in a launch', ({ forceNoBwrap }) => {
  it('loads it only into the payload, as the server user', async () => {
    const serverDir = await mkdtemp('/var/tmp/talon-preload-server-');
    try {
      const driver = await ProcessDriver.create({
        allowUnconfined: true,
        uid: 988,
        gid: 988,
        hidden: [],
        hiddenFiles: [],
        log: pino({ level: 'silent' }),
        cgroupMode: 'auto',
        cgroupRoot: '/sys/fs/cgroup',
        forceNoBwrap,
      });
      await driver.prepareDirectory(serverDir);
      const proc = await driver.launch({
        id: randomUUID(),
        kind: 'server',
        serverDir,
        argv: ['/bin/sh', '-c', 'echo "payload as $(id -u)"'],
        env: { PATH: '/usr/bin:/bin', LD_PRELOAD: library },
        limits: { memoryBytes: 0, swapBytes: -1, pids: 0, cpuPercent: 0 },
      });
      let out = '';
      proc.onOutput((c) => (out += c.toString()));
      expect((await proc.exited).code, out).toBe(0);
      expect(out).toContain('payload as 988');
      const loads = await loadsIn(markers, serverDir);
      expect(loads.filter((f) => f.startsWith('loaded-uid0-'))).toEqual([]);
      // The payload's shell and id did load it: the variable was delivered.
      expect(loads.some((f) => f.startsWith('loaded-uid988-'))).toBe(true);
    } finally {
      await rm(serverDir, { recursive: true, force: true });
      for (const f of await loadsIn(markers)) await rm(path.join(markers, f));
    }
  }, 120_000);
});

describe('server variables never reach a host process', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  }, 120_000);
  afterAll(async () => {
    await stack?.dispose();
  }, 120_000);

  it('LD_PRELOAD from a panel loads nowhere as root; the installer and the server still run', async () => {
    const uuid = await stack.createInstalled(undefined, {
      settings: {
        environment: {
          GAME_FILE: 'game.js',
          LD_PRELOAD: library,
          BASH_ENV: path.join(markers, 'bashrc'),
        },
      },
    });
    expect(stack.remote.installReports.find((r) => r.uuid === uuid)?.successful).toBe(true);
    const ws = await stack.startedWs(uuid);
    const serverDir = path.join(stack.config.system.data, uuid);
    const loads = await loadsIn(markers, serverDir);
    expect(loads.filter((f) => f.startsWith('loaded-uid0-'))).toEqual([]);
    // Dropped before the launch, so not even the game loads it; the console and install log say so.
    expect(loads).toEqual([]);
    const said = ws.messages.filter((m) => m.args?.[0]?.includes('LD_PRELOAD')).map((m) => m.args![0]);
    expect(said.join('\n')).toMatch(/variable LD_PRELOAD was not passed to the server/u);
    const installLog = await readFile(
      path.join(stack.config.system.log_directory, 'install', `${uuid}.log`),
      'utf8',
    );
    expect(installLog).toMatch(/variable LD_PRELOAD was not passed to the installer/u);
    await killServer(ws);
  }, 120_000);

  it("a variable's value is only in the game's own processes, never in a root process's argv or environment", async () => {
    const secret = `talon-secret-${randomBytes(8).toString('hex')}`;
    const uuid = await stack.createInstalled(undefined, {
      settings: seededSettings(secret),
    });
    const ws = await stack.startedWs(uuid);
    await expectOnlyTheGameHolds(stack, secret);
    await killServer(ws);
  }, 120_000);
});

// runtime.allow_unconfined without bubblewrap: setpriv drops to the server user, then the same
// launcher applies the environment, so no root process holds a value there either.
describe('server variables when running unconfined', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ forceNoBwrap: true, config: { runtime: { allow_unconfined: true } } });
  }, 120_000);
  afterAll(async () => {
    await stack?.dispose();
  }, 120_000);

  it('reach the game only, after the privilege drop', async () => {
    const secret = `talon-secret-${randomBytes(8).toString('hex')}`;
    const uuid = await stack.createInstalled(undefined, {
      settings: seededSettings(secret),
      // No /mnt/server without the sandbox: the server directory is HOME.
      script: `#!/bin/sh\nset -e\ncd "$HOME"\ncat > game.js <<'GAME'\n${GAME_JS}\nGAME\n`,
    });
    expect(stack.remote.installReports.find((r) => r.uuid === uuid)?.successful).toBe(true);
    expect(stack.daemon.driver.info.confinement).toBe('none');
    const ws = await stack.startedWs(uuid);
    await expectOnlyTheGameHolds(stack, secret);
    await killServer(ws);
  }, 120_000);
});
