import { chmod, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, waitUntil, type Stack, type WsClient } from '../test-support/harness.ts';

// These run as root on a host with bubblewrap and cgroup v1 (memory, pids), as CI does.
describe('confinement and limits (bwrap + setpriv + cgroups)', () => {
  let stack: Stack;
  const panelData = `/var/tmp/talon-panel-data-${process.pid}`;
  beforeAll(async () => {
    await mkdir(panelData, { recursive: true });
    await chmod(panelData, 0o755);
    await writeFile(path.join(panelData, 'panel.sqlite'), 'SECRET-PANEL-DB', { mode: 0o644 });
    stack = await startStack({
      config: { runtime: { stats_interval_ms: 250, pid_limit: 32, hidden_paths: [panelData] } },
    });
  });
  afterAll(async () => {
    await stack?.dispose();
    await rm(panelData, { recursive: true, force: true });
  });

  const running = (uuid: string): Promise<WsClient> => stack.startedWs(uuid);

  async function ask(ws: WsClient, command: string, prefix: string): Promise<string> {
    const at = ws.messages.length;
    ws.send('send command', command);
    const m = await ws.waitFor(
      (x) => x.event === 'console output' && (x.args?.[0] ?? '').startsWith(prefix),
      10_000,
      at,
    );
    return m.args![0]!;
  }

  it('reports its runtime', async () => {
    expect(stack.daemon.driver.info).toEqual({
      driver: 'process',
      confinement: 'bwrap',
      limits: 'cgroup-v1',
      enforcement: 'kernel',
    });
  });

  it("cannot read other servers' files, the daemon config or the panel's data; cannot write the host", async () => {
    const a = await stack.createInstalled();
    const b = await stack.createInstalled();
    const ws = await running(a);
    const bGame = path.join(stack.config.system.data, b, 'game.js');
    // The host itself can read it (world-readable dirs): only the sandbox keeps the server out.
    expect(await readdir(stack.config.system.data)).toContain(b);
    expect(await ask(ws, `read ${bGame}`, 'read')).toBe('read denied ENOENT');
    expect(await ask(ws, `ls ${stack.config.system.data}`, 'ls')).toBe('ls ok []');
    // The config file is masked by /dev/null on a nodev mount: unopenable.
    expect(await ask(ws, `read ${stack.configFile}`, 'read')).toMatch(/^read denied (ENOENT|EACCES)$/);
    expect(await ask(ws, `read ${path.join(panelData, 'panel.sqlite')}`, 'read')).toBe('read denied ENOENT');
    expect(await ask(ws, 'read /etc/shadow', 'read')).toBe('read denied EACCES');
    expect(await ask(ws, 'write /etc/talon-escape', 'write')).toMatch(/^write denied (EROFS|EACCES)$/);
    expect(await ask(ws, `write ${path.join(stack.root, 'escape')}`, 'write')).toMatch(
      /^write denied (EROFS|EACCES)$/,
    );
    expect(await ask(ws, 'write /home/container/ok.txt', 'write')).toBe('write ok');
    // Own pid namespace: the daemon and the host's processes are invisible.
    expect(await ask(ws, 'ls /proc', 'ls')).not.toMatch(new RegExp(`\\b${process.pid}\\b`));
    ws.send('set state', 'kill');
    await waitUntil(
      async () => (await stack.api('GET', `/api/servers/${a}`)).body.state === 'offline',
      10_000,
      'offline',
    );
  });

  it('is OOM-killed at its cgroup v1 memory limit and reports it', async () => {
    const uuid = await stack.createInstalled(undefined, {
      settings: {
        build: {
          memory_limit: 64,
          swap: 0,
          io_weight: 500,
          cpu_limit: 50,
          threads: null,
          disk_space: 0,
          oom_disabled: false,
        },
      },
    });
    const ws = await running(uuid);
    const at = ws.messages.length;
    ws.send('send command', 'mem 200');
    await ws.waitFor((m) => m.args?.[0]?.includes('Out of memory: true') ?? false, 15_000, at);
    expect(ws.messages.slice(at).some((m) => m.args?.[0] === 'allocated 200 MiB')).toBe(false);
    // Crash policy restarts it once; then stop it.
    await ws.waitFor((m) => m.event === 'status' && m.args?.[0] === 'running', 10_000, at);
    ws.send('set state', 'kill');
    await ws.waitFor(
      (m) => m.event === 'status' && m.args?.[0] === 'offline',
      10_000,
      ws.messages.length - 1,
    );
  });

  it('cannot exceed its pid limit (fork bomb contained)', async () => {
    const uuid = await stack.createInstalled();
    const ws = await running(uuid);
    const line = await ask(ws, 'fork 64', 'forked');
    expect(line).toMatch(/errors EAGAIN/);
    ws.send('set state', 'kill');
    await ws.waitFor(
      (m) => m.event === 'status' && m.args?.[0] === 'offline',
      10_000,
      ws.messages.length - 1,
    );
  });

  it('leaves no cgroups or processes behind after servers end', async () => {
    // Only this stack's servers count: other daemons on the machine (other test files) share the tree.
    const mine = stack.daemon.manager.all().map((s) => s.uuid);
    await waitUntil(
      async () => {
        for (const ctrl of ['memory', 'pids', 'cpu', 'cpuacct']) {
          const own =
            /\d+:([^:]*):(.*)/.exec(
              (await readFile('/proc/self/cgroup', 'utf8'))
                .split('\n')
                .find((l) => l.split(':')[1]?.split(',').includes(ctrl)) ?? '',
            )?.[2] ?? '/';
          const entries = await readdir(path.join('/sys/fs/cgroup', ctrl, own, 'talon'), {
            withFileTypes: true,
          });
          if (entries.some((e) => e.isDirectory() && mine.some((uuid) => e.name.startsWith(uuid))))
            return false;
        }
        return true;
      },
      5000,
      'cgroups removed',
    );
    for (const s of stack.daemon.manager.all()) expect(s.running).toBe(false);
  });
});

describe('without bubblewrap', () => {
  it('refuses to run servers unless allow_unconfined is set, and says why', async () => {
    const stack = await startStack({ forceNoBwrap: true });
    try {
      expect(stack.daemon.driver.refusal).toMatch(
        /bubblewrap \(bwrap\) is not installed.*runtime\.allow_unconfined/,
      );
      const uuid = await stack.createInstalled();
      expect(stack.remote.installReports.find((r) => r.uuid === uuid)?.successful).toBe(false);
      const ws = await stack.ws(uuid);
      ws.send('auth', await stack.token(uuid));
      await ws.waitFor((m) => m.event === 'auth success');
      ws.send('set state', 'start');
      const err = await ws.waitFor((m) => m.event === 'daemon error');
      expect(err.args![0]).toContain('bubblewrap (bwrap) is not installed');
    } finally {
      await stack.dispose();
    }
  });
});
