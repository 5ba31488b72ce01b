import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_INSTALL_LOG } from '../http/install-log.ts';
import { UNKNOWN_SERVER } from '../http/plugins.ts';
import { fixtureServer, startStack, waitUntil, type Stack } from '../test-support/harness.ts';
import { INSTALL_LOG_LIMIT, InstallOutputTail, installLogPath } from './install-log.ts';

describe('InstallOutputTail', () => {
  it('keeps the last lines within its byte limit and counts the dropped ones', () => {
    const tail = new InstallOutputTail(20);
    for (let i = 0; i < 10; i++) tail.push(`line ${i}`); // 7 bytes each with its newline
    expect(tail.snapshot()).toEqual(['line 8', 'line 9']);
    expect(tail.droppedLines).toBe(8);
  });

  it('keeps every line while under the limit', () => {
    const tail = new InstallOutputTail(1000);
    for (let i = 0; i < 5000; i++) tail.push('');
    expect(tail.snapshot()).toHaveLength(1000);
    for (let i = 0; i < 3; i++) tail.push(`last ${i}`);
    expect(tail.snapshot().slice(-3)).toEqual(['last 0', 'last 1', 'last 2']);
  });
});

// Real daemon, real install scripts run by the process runtime.
describe('a failed install keeps its log, and the daemon serves it', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  async function install(script: string): Promise<{ uuid: string; successful: boolean }> {
    const uuid = randomUUID();
    stack.remote.servers.set(uuid, fixtureServer(uuid, { script }));
    const res = await stack.api('POST', '/api/servers', { uuid, start_on_completion: false });
    expect(res.status).toBe(202);
    await waitUntil(() => stack.remote.installReports.some((r) => r.uuid === uuid), 60_000, 'install report');
    return { uuid, successful: stack.remote.installReports.find((r) => r.uuid === uuid)!.successful };
  }

  it('reports the failure and answers GET install-logs with the output and the exit code', async () => {
    const { uuid, successful } = await install(
      'echo "fetching the game files"\necho "404 Not Found" >&2\nexit 3',
    );
    expect(successful).toBe(false);
    const res = await stack.api('GET', `/api/servers/${uuid}/install-logs`);
    expect(res.status).toBe(200);
    expect(res.body.data).toContain('fetching the game files');
    expect(res.body.data).toContain('404 Not Found');
    expect(res.body.data).toContain('exit code: 3');
    expect(res.body.data).toMatch(/^runtime: process\nimage \(ignored by the process runtime\): /m);
    expect(res.body.data).toContain('install script exited with code 3');
    // Kept in the daemon's log directory, readable by the daemon's user only.
    const file = await stat(installLogPath(stack.config, uuid));
    expect(file.mode & 0o777).toBe(0o600);
  }, 120_000);

  it('keeps only the last MiB of a runaway install, and says how much it dropped', async () => {
    // ~3 MiB of numbered lines, then a last line that must survive.
    const { uuid } = await install(
      'for i in $(seq 1 60000); do echo "noise line $i padded to fill the log quickly ......"; done\necho "the final words"\nexit 1',
    );
    const res = await stack.api('GET', `/api/servers/${uuid}/install-logs`);
    expect(res.status).toBe(200);
    const text = res.body.data as string;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(INSTALL_LOG_LIMIT);
    expect(text).toContain('the final words');
    expect(text).not.toMatch(/^noise line 1 padded/m);
    expect(text).toMatch(/\[\d+ earlier lines dropped: the log keeps the last 1048576 bytes\]/);
    expect((await stat(installLogPath(stack.config, uuid))).size).toBeLessThanOrEqual(INSTALL_LOG_LIMIT);
  }, 120_000);

  it('replaces the log on the next install', async () => {
    const uuid = randomUUID();
    stack.remote.servers.set(uuid, fixtureServer(uuid, { script: 'echo "first attempt"; exit 2' }));
    await stack.api('POST', '/api/servers', { uuid, start_on_completion: false });
    await waitUntil(() => stack.remote.installReports.some((r) => r.uuid === uuid), 60_000, 'first install');
    stack.remote.servers.set(uuid, fixtureServer(uuid, { script: 'echo "second attempt"' }));
    expect((await stack.api('POST', `/api/servers/${uuid}/reinstall`)).status).toBe(202);
    await waitUntil(
      () => stack.remote.installReports.filter((r) => r.uuid === uuid).length === 2,
      60_000,
      'reinstall report',
    );
    expect(stack.remote.installReports.filter((r) => r.uuid === uuid).map((r) => r.successful)).toEqual([
      false,
      true,
    ]);
    const text = (await stack.api('GET', `/api/servers/${uuid}/install-logs`)).body.data as string;
    expect(text).toContain('second attempt');
    expect(text).not.toContain('first attempt');
  }, 120_000);

  it("replays a failed install's output to a console with admin.websocket.install, and only to it", async () => {
    const { uuid } = await install('echo "unpacking the world"\nexit 4');
    const adminWs = await stack.ws(uuid);
    adminWs.send('auth', await stack.token(uuid));
    await adminWs.waitFor((m) => m.event === 'install output' && m.args?.[0] === 'unpacking the world');
    await adminWs.waitFor(
      (m) => m.event === 'install output' && m.args?.[0] === 'install script exited with code 4',
    );
    adminWs.close();

    // The owner's token ('*' does not grant admin permissions): its first stats, sent after the
    // replay would be, arrive without any install output before them.
    const ownerWs = await stack.ws(uuid);
    ownerWs.send('auth', await stack.token(uuid, { permissions: ['*'] }));
    await ownerWs.waitFor((m) => m.event === 'stats');
    expect(ownerWs.messages.filter((m) => m.event === 'install output')).toEqual([]);
    ownerWs.close();
  }, 120_000);

  it('answers 404 for a server without a log, or unknown to the node, and 403 with a wrong node token', async () => {
    const uuid = randomUUID();
    stack.remote.servers.set(uuid, fixtureServer(uuid, { settings: { skip_egg_scripts: true } }));
    await stack.api('POST', '/api/servers', { uuid, start_on_completion: false });
    await waitUntil(() => stack.remote.installReports.some((r) => r.uuid === uuid), 60_000, 'install report');
    const none = await stack.api('GET', `/api/servers/${uuid}/install-logs`);
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ error: NO_INSTALL_LOG });

    const unknown = await stack.api('GET', `/api/servers/${randomUUID()}/install-logs`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: UNKNOWN_SERVER });

    const anonymous = await stack.api('GET', `/api/servers/${uuid}/install-logs`, undefined, 'wrong-token');
    expect(anonymous.status).toBe(403);
  }, 120_000);
});
