import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAILING_INSTALL_SCRIPT } from '../test-support/game.ts';
import { startStack, waitUntil, type Stack, type WsClient } from '../test-support/harness.ts';

/**
 * Resolves once every frame the daemon sent for the process exit has arrived. The exit is handled
 * in one go: the `offline` status, its stats, then the crash handler's notices and its decision to
 * restart (which takes the power lock) or not. The daemon answers frames in order, so the answer to
 * a 'send stats' sent after the exit's own stats frame comes after all of that (a pause would only
 * guess at it).
 */
async function exitHandled(ws: WsClient, from: number): Promise<void> {
  const offline = await ws.waitFor((m) => m.event === 'status' && m.args?.[0] === 'offline', 10_000, from);
  await ws.waitFor((m) => m.event === 'stats', 10_000, ws.messages.indexOf(offline, from) + 1);
  const acked = ws.messages.length;
  ws.send('send stats');
  await ws.waitFor((m) => m.event === 'stats', 10_000, acked);
}

// Real processes end to end: create → install (bash script) → start (bwrap + setpriv) → console.
describe('server lifecycle (real processes)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  const state = async (uuid: string): Promise<string> =>
    (await stack.api('GET', `/api/servers/${uuid}`)).body.state as string;
  const crashNotices = (ws: WsClient, from: number): string[] =>
    ws.messages
      .slice(from)
      .filter((m) => m.event === 'console output' && m.args![0]!.includes('crashed state'))
      .map((m) => m.args![0]!);

  it('creates, installs, starts to running on the done line, echoes a command, stops to offline', async () => {
    const uuid = await stack.createInstalled();
    expect(stack.remote.installReports.find((r) => r.uuid === uuid)).toEqual({
      uuid,
      successful: true,
      reinstall: false,
    });
    const dir = path.join(stack.config.system.data, uuid);
    const st = await stat(path.join(dir, 'game.js'));
    expect(st.uid).toBe(stack.config.runtime.uid); // install ran as the server user
    const log = await readFile(
      path.join(stack.config.system.log_directory, 'install', `${uuid}.log`),
      'utf8',
    );
    expect(log).toContain('installed into /mnt/server as uid 988, server port 25565');

    const ws = await stack.ws(uuid);
    ws.send('auth', await stack.token(uuid));
    await ws.waitFor((m) => m.event === 'auth success');
    await ws.waitFor((m) => m.event === 'status' && m.args?.[0] === 'offline');

    const power = await stack.api('POST', `/api/servers/${uuid}/power`, { action: 'start' });
    expect(power.status).toBe(202);
    await ws.waitFor((m) => m.event === 'status' && m.args?.[0] === 'starting');
    await ws.waitFor((m) => m.event === 'status' && m.args?.[0] === 'running');
    await ws.waitFor(
      (m) => m.event === 'console output' && m.args![0]!.includes('as uid 988 in /home/container'),
    );

    const cmd = await stack.api('POST', `/api/servers/${uuid}/commands`, { commands: ['say hello'] });
    expect(cmd.status).toBe(204);
    await ws.waitFor((m) => m.event === 'console output' && m.args?.[0] === '> say hello');

    // Stats arrive about every interval with the JSON string payload.
    const stats = await ws.waitFor((m) => m.event === 'stats' && JSON.parse(m.args![0]!).state === 'running');
    const s = JSON.parse(stats.args![0]!);
    expect(Object.keys(s)).toEqual([
      'cpu_absolute',
      'disk_bytes',
      'memory_bytes',
      'memory_limit_bytes',
      'network',
      'state',
      'uptime',
    ]);
    await waitUntil(
      async () => (await stack.api('GET', `/api/servers/${uuid}`)).body.utilization.memory_bytes > 1_000_000,
      5000,
      'memory sample',
    );
    const details = (await stack.api('GET', `/api/servers/${uuid}`)).body;
    expect(details.utilization.memory_limit_bytes).toBe(256 * 1024 * 1024);
    expect(details.utilization.disk_bytes).toBeGreaterThan(1000);
    expect(details.utilization.uptime).toBeGreaterThan(0);
    expect(details.configuration.uuid).toBe(uuid);

    const logs = await stack.api('GET', `/api/servers/${uuid}/logs?size=5`);
    expect(logs.body.data).toContain('> say hello');

    const stopAt = ws.messages.length;
    await stack.api('POST', `/api/servers/${uuid}/power`, { action: 'stop' });
    await ws.waitFor((m) => m.event === 'status' && m.args?.[0] === 'stopping', 10_000, stopAt);
    await exitHandled(ws, stopAt);
    expect(ws.messages.some((m) => m.event === 'console output' && m.args?.[0] === 'Stopping server')).toBe(
      true,
    );
    // A clean stop is not a crash: no crash notice, no restart under way.
    expect(crashNotices(ws, stopAt)).toEqual([]);
    expect(stack.daemon.manager.get(uuid)!.powerLocked).toBe(false);
    expect(await state(uuid)).toBe('offline');
    expect((await stack.api('POST', `/api/servers/${uuid}/commands`, { commands: ['x'] })).status).toBe(502);
  });

  it('stops a ^C egg with a real SIGINT, and kill ends it at once', async () => {
    const uuid = await stack.createInstalled(undefined, {
      process: { stop: { type: 'signal', value: 'C' } },
    });
    const ws = await stack.startedWs(uuid);
    const stopAt = ws.messages.length;
    ws.send('set state', 'stop');
    await ws.waitFor(
      (m) => m.event === 'console output' && m.args?.[0] === 'got SIGINT, saving world',
      10_000,
      stopAt,
    );
    await ws.waitFor((m) => m.event === 'status' && m.args?.[0] === 'offline', 10_000, stopAt);

    const from = ws.messages.length;
    ws.send('set state', 'start');
    await ws.waitFor((m) => m.event === 'status' && m.args?.[0] === 'running', 10_000, from);
    // The outcome, not the speed: the process ends (SIGKILL, so the game never logs its SIGINT
    // goodbye) and the kill is not taken for a crash.
    const killAt = ws.messages.length;
    ws.send('set state', 'kill');
    await exitHandled(ws, killAt);
    expect(
      ws.messages
        .slice(killAt)
        .filter((m) => m.event === 'status')
        .map((m) => m.args?.[0]),
    ).toEqual(['stopping', 'offline']);
    expect(
      ws.messages
        .slice(killAt)
        .some((m) => m.event === 'console output' && m.args?.[0] === 'got SIGINT, saving world'),
    ).toBe(false);
    expect(crashNotices(ws, from)).toEqual([]);
    expect(await state(uuid)).toBe('offline');
  });

  it('restarts a crashed server once, then stays down on a second crash within the timeout', async () => {
    const uuid = await stack.createInstalled();
    const ws = await stack.startedWs(uuid);
    let from = ws.messages.length;
    ws.send('send command', 'crash');
    await ws.waitFor(
      (m) =>
        m.event === 'console output' && m.args![0]!.includes('Detected server process in a crashed state!'),
      10_000,
      from,
    );
    await ws.waitFor(
      (m) => m.event === 'console output' && m.args![0]!.includes('Exit code: 3'),
      10_000,
      from,
    );
    await ws.waitFor((m) => m.event === 'status' && m.args?.[0] === 'running', 10_000, from);

    from = ws.messages.length;
    ws.send('send command', 'crash');
    await ws.waitFor(
      (m) =>
        m.event === 'console output' && m.args![0]!.includes('last crash occurred less than 60 seconds ago'),
      10_000,
      from,
    );
    // It stays down: the crash handler took no power lock for a restart, and nothing started.
    await exitHandled(ws, from);
    expect(stack.daemon.manager.get(uuid)!.powerLocked).toBe(false);
    expect(ws.messages.slice(from).some((m) => m.event === 'status' && m.args?.[0] === 'starting')).toBe(
      false,
    );
    expect(await state(uuid)).toBe('offline');
  });

  it('reports a failing install script as failed, and a reinstall as reinstall', async () => {
    const uuid = await stack.createInstalled(undefined, { script: FAILING_INSTALL_SCRIPT });
    expect(stack.remote.installReports.find((r) => r.uuid === uuid)).toEqual({
      uuid,
      successful: false,
      reinstall: false,
    });
    const log = await readFile(
      path.join(stack.config.system.log_directory, 'install', `${uuid}.log`),
      'utf8',
    );
    expect(log).toContain('download failed');
    expect(log).toContain('exit code: 7');

    stack.remote.servers.get(uuid)!.install.script = 'echo fixed';
    expect((await stack.api('POST', `/api/servers/${uuid}/reinstall`)).status).toBe(202);
    await waitUntil(
      () => stack.remote.installReports.filter((r) => r.uuid === uuid).length === 2,
      15_000,
      'reinstall report',
    );
    expect(stack.remote.installReports.filter((r) => r.uuid === uuid)[1]).toEqual({
      uuid,
      successful: true,
      reinstall: true,
    });
  });

  it('deletes a running server: socket closed with 1001, files removed, 404 afterwards', async () => {
    const uuid = await stack.createInstalled();
    const ws = await stack.ws(uuid);
    ws.send('auth', await stack.token(uuid));
    await ws.waitFor((m) => m.event === 'auth success');
    await stack.api('POST', `/api/servers/${uuid}/power`, { action: 'start' });
    await ws.waitFor((m) => m.event === 'status' && m.args?.[0] === 'running');
    const closed = new Promise<number>((r) => ws.socket.once('close', (code) => r(code)));
    expect((await stack.api('DELETE', `/api/servers/${uuid}`)).status).toBe(204);
    expect(await closed).toBe(1001);
    expect((await stack.api('GET', `/api/servers/${uuid}`)).status).toBe(404);
    await waitUntil(
      async () =>
        stat(path.join(stack.config.system.data, uuid)).then(
          () => false,
          () => true,
        ),
      5000,
      'files removed',
    );
  });
});
