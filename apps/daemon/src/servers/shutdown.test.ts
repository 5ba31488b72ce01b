import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../config/config.ts';
import { startDaemonProcess, type DaemonProcess } from '../test-support/daemon-process.ts';
import { fixtureServer, waitUntil } from '../test-support/harness.ts';

/** Processes on the host that were started with this server's environment. */
async function serverProcesses(uuid: string): Promise<number[]> {
  const found: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const env = await readFile(`/proc/${name}/environ`, 'utf8').catch(() => '');
    if (env.split('\0').includes(`P_SERVER_UUID=${uuid}`)) found.push(Number(name));
  }
  return found;
}

it('gives servers 30 seconds to stop unless configured otherwise', () => {
  const config = parseConfig({ token_id: 't', token: 't', remote: 'http://127.0.0.1:1' });
  expect(config.system.shutdown_timeout).toBe(30);
});

// A real daemon process (main.ts) with a real game server: the operator restarts the daemon.
describe('daemon SIGTERM', () => {
  let daemon: DaemonProcess | undefined;
  afterEach(async () => {
    await daemon?.dispose();
    daemon = undefined;
  });

  async function runningServer(d: DaemonProcess, stop: string): Promise<string> {
    const uuid = randomUUID();
    d.remote.servers.set(uuid, fixtureServer(uuid, { process: { stop: { type: 'command', value: stop } } }));
    expect((await d.api('POST', '/api/servers', { uuid, start_on_completion: true })).status).toBe(202);
    await waitUntil(
      async () => (await d.api('GET', `/api/servers/${uuid}`)).body.state === 'running',
      30_000,
      'server running',
    );
    return uuid;
  }

  it("stops each server with its egg's stop command, then exits 0, keeping the state for the next boot", async () => {
    daemon = await startDaemonProcess({ system: { shutdown_timeout: 30 } });
    const uuid = await runningServer(daemon, 'save-stop');
    daemon.child.kill('SIGTERM');
    expect(await daemon.exited).toEqual({ code: 0, signal: null });
    const dir = path.join(daemon.root, 'volumes', uuid);
    expect(await readFile(path.join(dir, 'saved.txt'), 'utf8')).toBe('world saved');
    const states = JSON.parse(await readFile(path.join(daemon.root, 'lib', 'states.json'), 'utf8'));
    expect(states[uuid]).toBe('running');
    expect(await serverProcesses(uuid)).toEqual([]);
    const stopping = daemon.logs().find((l) => l.msg === 'stopping servers before exit');
    expect(stopping).toMatchObject({ signal: 'SIGTERM', servers: 1, timeoutSeconds: 30 });
  });

  it('kills a server that ignores its stop command once system.shutdown_timeout has passed', async () => {
    daemon = await startDaemonProcess({ system: { shutdown_timeout: 1 } });
    const uuid = await runningServer(daemon, 'ignored-stop');
    daemon.child.kill('SIGTERM');
    expect(await daemon.exited).toEqual({ code: 0, signal: null });
    expect(
      daemon.logs().find((l) => l.msg === 'server did not stop in time; killing it' && l.server === uuid),
    ).toBeTruthy();
    expect(await serverProcesses(uuid)).toEqual([]);
    const files = await readdir(path.join(daemon.root, 'volumes', uuid));
    expect(files).not.toContain('saved.txt');
  });
});
