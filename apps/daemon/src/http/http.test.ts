import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, startStack, waitUntil, type Stack } from '../test-support/harness.ts';

describe('HTTP API (Wings routes, node-token auth, exact bodies)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  it('requires the node token: 401 without, 403 wrong; X-Request-Id on every answer', async () => {
    const none = await fetch(`${stack.url}/api/system`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(await none.json()).toEqual({
      error: 'The required authorization heads were not present in the request.',
    });
    expect(none.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const wrong = await stack.api('GET', '/api/system', undefined, 'nope');
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ error: 'You are not authorized to access this endpoint.' });
    const pre = await fetch(`${stack.url}/api/servers`, { method: 'OPTIONS' });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(stack.config.remote);
  });

  it('GET /api/system', async () => {
    const res = await stack.api('GET', '/api/system');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      architecture: expect.any(String),
      cpu_count: expect.any(Number),
      os: 'linux',
      version: '0.1.0',
    });
  });

  it('validates bodies and unknown servers as Wings does', async () => {
    expect((await stack.api('POST', '/api/servers', { uuid: 'not-a-uuid' })).status).toBe(422);
    const missing = await stack.api('GET', `/api/servers/${randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'The requested resource does not exist on this instance.' });
    const uuid = await stack.createInstalled();
    const bad = await stack.api('POST', `/api/servers/${uuid}/power`, { action: 'explode' });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toBe(
      'The power action provided was not valid, should be one of "stop", "start", "restart", "kill"',
    );
    const empty = await fetch(`${stack.url}/api/servers/${uuid}/power`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({
      error: 'The data passed in the request was not in a parsable format. Please try again.',
    });
    const list = await stack.api('GET', '/api/servers');
    expect(list.body.map((s: { configuration: { uuid: string } }) => s.configuration.uuid)).toContain(uuid);
    expect((await stack.api('POST', `/api/servers/${uuid}/ws/deny`, { jtis: ['a'] })).status).toBe(204);
    // A suspended server cannot be started.
    stack.remote.servers.get(uuid)!.settings.suspended = true;
    expect((await stack.api('POST', `/api/servers/${uuid}/sync`)).status).toBe(204);
    const susp = await stack.api('POST', `/api/servers/${uuid}/power`, { action: 'start' });
    expect(susp.status).toBe(400);
    expect(susp.body).toEqual({ error: 'Cannot start or restart a server that is suspended.' });
    expect((await stack.api('GET', `/api/servers/${uuid}`)).body.is_suspended).toBe(true);
  });

  it('restores a running server after a daemon restart, refuses pre-restart tokens, calls reset', async () => {
    const uuid = await stack.createInstalled();
    await stack.startedWs(uuid);
    // states.json is written asynchronously after each state change.
    const statesFile = path.join(stack.config.system.root_directory, 'states.json');
    await waitUntil(
      async () => JSON.parse(await readFile(statesFile, 'utf8'))[uuid] === 'running',
      5000,
      'state recorded',
    );
    const resets = stack.remote.resets;
    const oldToken = await stack.token(uuid, { iat: Math.floor(Date.now() / 1000) - 5 });

    await stack.daemon.close();
    await stack.restart();
    await waitUntil(() => stack.remote.resets === resets + 1, 5000, 'POST /servers/reset');
    await waitUntil(
      async () => (await stack.api('GET', `/api/servers/${uuid}`)).body.state === 'running',
      10_000,
      'restored to running',
    );

    const again = await stack.ws(uuid);
    again.send('auth', oldToken);
    await again.waitFor(
      (m) => m.event === 'jwt error' && m.args?.[0] === 'jwt: created too far in past (denylist)',
    );
    await stack.api('POST', `/api/servers/${uuid}/power`, { action: 'kill' });
  });
});

describe('main.ts', () => {
  it('boots from --config, serves the API, and exits on SIGTERM', async () => {
    const stack = await startStack();
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const raw = JSON.parse(await readFile(stack.configFile, 'utf8'));
    raw.api.port = port;
    const file = path.join(stack.root, 'etc', 'main.json');
    await writeFile(file, JSON.stringify(raw));
    await stack.daemon.close(); // one daemon per directories
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, '..', 'main.ts'), '--config', file],
      {
        stdio: 'ignore',
      },
    );
    try {
      await waitUntil(
        async () => {
          try {
            return (
              (
                await fetch(`http://127.0.0.1:${port}/api/system`, {
                  headers: { Authorization: `Bearer ${TOKEN}` },
                })
              ).status === 200
            );
          } catch {
            return false;
          }
        },
        20_000,
        'main.ts listening',
      );
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await stack.restart();
      await stack.dispose();
    }
  });
});

describe('console throttle on a real server', () => {
  // The window is long here so that the count does not depend on how fast this machine moves
  // 30000 lines: at 2000 per 100 ms a loaded machine could spread them over several windows and
  // never throttle. The window's timing itself is unit-tested with a clock (servers/units.test.ts).
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ config: { throttles: { lines: 2000, line_reset_interval: 600_000 } } });
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  it('passes the first 2000 lines of a window, then a notice; logs keep every line', async () => {
    const uuid = await stack.createInstalled();
    const ws = await stack.startedWs(uuid);
    const at = ws.messages.length;
    ws.send('send command', 'spam 30000');
    // Lines reach the socket in the order the throttle passed them: every passed line is in
    // before the notice.
    const notice = await ws.waitFor(
      (m) =>
        m.event === 'console output' &&
        m.args![0]!.includes('Server is outputting console data too quickly -- throttling...'),
      30_000,
      at,
    );
    expect(notice.args![0]).toBe(
      '\x1b[33m\x1b[1m[Talon Daemon]:\x1b[39m Server is outputting console data too quickly -- throttling...\x1b[0m',
    );
    const out = ws.messages.slice(0, ws.messages.indexOf(notice)).filter((m) => m.event === 'console output');
    // The window began when the server started, so its start-up lines share the 2000.
    const spam = out.filter((m) => m.args![0]!.startsWith('spam line'));
    expect(spam.length).toBeGreaterThan(1900);
    expect(spam.length).toBeLessThanOrEqual(2000);
    await waitUntil(
      () => stack.daemon.manager.get(uuid)!.history.last(1)[0] === 'spam done',
      30_000,
      'spam finished',
    );
    // Everything reached the history (GET /logs), throttled or not.
    expect((await stack.api('GET', `/api/servers/${uuid}/logs?size=1`)).body.data).toEqual(['spam done']);
    await stack.api('POST', `/api/servers/${uuid}/power`, { action: 'kill' });
  });
});
