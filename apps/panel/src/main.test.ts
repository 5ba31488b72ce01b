import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TestClient } from './test-support/client.ts';
import { createTestDatabase, type TestDatabase } from './test-support/database.ts';
import { freePort } from './test-support/daemon.ts';
import { LOCAL_DAEMON_KILL_AFTER_MS } from './embedded/local-daemon.ts';
import { descendantsOf, environOf, groupMembers, type ProcInfo } from './test-support/processes.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'talon-main-'));
let database: TestDatabase | undefined;

/**
 * The panel's entry point run by Node with tsx loaded, as `npm start` does. Not through the tsx
 * command: it relays a signal and, when the panel does not acknowledge it within 30 ms (a busy
 * machine), kills the panel with SIGKILL, so a stop would end in 143 instead of 0.
 */
const PANEL = ['--import', 'tsx', 'apps/panel/src/main.ts'];

/**
 * Runs the real panel entry point (or `npm start`'s script, in a process group of its own) until it
 * listens; returns the process, its output so far and a stop function.
 */
async function startPanel(
  port: number,
  env: Record<string, string>,
  opts: { args?: string[]; ownGroup?: boolean } = {},
) {
  const child = spawn(process.execPath, opts.args ?? PANEL, {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    detached: opts.ownGroup ?? false,
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (output.includes('Panel listening on')) {
        clearInterval(timer);
        resolve();
      }
    }, 50);
    child.on('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`panel exited with ${code}: ${output}`));
    });
  });
  const stop = () =>
    new Promise<number | null>((resolve) => {
      child.removeAllListeners('exit');
      child.on('exit', (code) => resolve(code));
      child.kill('SIGTERM');
    });
  return { child, output: () => output, stop };
}

/** Waits for something to happen (checked every 100 ms), failing after a generous bound. */
async function waitUntil<T>(what: string, find: () => T | null | undefined | false): Promise<T> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const found = find();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The panel's local daemon process (the node process running the daemon's entry point). */
function localDaemonOf(panelPid: number): ProcInfo | undefined {
  return descendantsOf(panelPid).find(
    (p) => p.cmdline.includes('apps/daemon/src/main.ts') && p.state !== 'Z',
  );
}

/** Settings for a panel of its own: a fresh database, data directory and ports. */
async function ownPanel() {
  const db = await createTestDatabase();
  const dir = mkdtempSync(path.join(tmpdir(), 'talon-main-'));
  const daemonPort = await freePort();
  // Below the ephemeral range and apart from the test daemons' (10000–17999) and browser tests' blocks.
  const allocation = 18_000 + Math.floor(Math.random() * 100) * 10;
  const env = {
    DATA_DIR: dir,
    DATABASE_URL: db.url,
    LOCAL_DAEMON_PORT: String(daemonPort),
    LOCAL_SFTP_PORT: String(await freePort()),
    LOCAL_ALLOCATIONS: `${allocation}-${allocation + 4}`,
  };
  const cleanup = async () => {
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  };
  return { env, daemonPort, port: await freePort(), cleanup };
}

/** The daemon's answer to an unauthenticated request (401 once it is up). */
async function waitForDaemon(port: number): Promise<number> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      return (await fetch(`http://127.0.0.1:${port}/api/system`)).status;
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

afterAll(async () => {
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

// Each test starts whole panel processes (and their daemons) through tsx, some twice: on a loaded
// two-core CI machine that alone can take longer than the project's 30 s default.
describe('the panel process', { timeout: 180_000 }, () => {
  it('creates and prints the first admin once, who can sign in; a restart keeps the data', async () => {
    database = await createTestDatabase();
    const port = await freePort();
    const daemonPort = await freePort();
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      LOCAL_DAEMON_PORT: String(daemonPort),
      LOCAL_SFTP_PORT: String(await freePort()),
      LOCAL_ALLOCATIONS: '41000-41004',
      LOCAL_CONSOLE_THROTTLE_LINES: '5000',
    };

    const first = await startPanel(port, env);
    const match = /Admin user created: username=(\S+) password=(\S+)/u.exec(first.output());
    expect(match).not.toBeNull();
    const [, username = '', password = ''] = match ?? [];
    const client = new TestClient(`http://127.0.0.1:${port}`);
    const login = await client.login(username, password);
    expect(login.status).toBe(200);
    expect(login.body.data.user.root_admin).toBe(true);
    const created = await client.post('/api/client/account/api-keys', {
      description: 'kept across restarts',
    });
    expect(created.status).toBe(200);
    // The embedded default: a local node with its allocations, and its daemon answering.
    const nodes = await client.get('/api/application/nodes?include=allocations');
    expect(nodes.body.data.map((n: any) => n.attributes.name)).toEqual(['Local']);
    expect(nodes.body.data[0].attributes.relationships.allocations.data).toHaveLength(5);
    const eggs = await client.get('/api/application/nests');
    expect(eggs.status).toBe(200);
    expect(eggs.body.meta.pagination.total).toBeGreaterThan(0);
    const daemonAnswer = await waitForDaemon(daemonPort);
    expect(daemonAnswer).toBe(401);
    // The local daemon's console throttle follows LOCAL_CONSOLE_THROTTLE_LINES.
    const daemonConfig = JSON.parse(readFileSync(path.join(dataDir, 'daemon', 'config.json'), 'utf8'));
    expect(daemonConfig.throttles).toEqual({ lines: 5000, line_reset_interval: 100 });
    // Its servers' stop fits in the panel's bound for stopping it (Ctrl+C ends all within 15 s).
    expect(daemonConfig.system.shutdown_timeout * 1000).toBeLessThan(LOCAL_DAEMON_KILL_AFTER_MS);
    expect(await first.stop()).toBe(0);

    const second = await startPanel(port, env);
    expect(second.output()).not.toContain('Admin user created');
    expect(await waitForDaemon(daemonPort)).toBe(401);
    const again = new TestClient(`http://127.0.0.1:${port}`);
    expect((await again.login(username, password)).status).toBe(200);
    const keys = await again.get('/api/client/account/api-keys');
    expect(keys.body.data.map((k: any) => k.attributes.description)).toEqual(['kept across restarts']);
    expect(await second.stop()).toBe(0);
  });

  it('gives the local daemon none of its secrets, and starts it again when it is killed', async () => {
    const own = await ownPanel();
    const secrets = {
      APP_KEY: `base64:${randomBytes(32).toString('base64')}`,
      MAIL_HOST: '127.0.0.1',
      MAIL_USERNAME: 'panel-mailer',
      MAIL_PASSWORD: 'mail-password-never-for-the-daemon',
      RECAPTCHA_SECRET_KEY: 'recaptcha-secret-never-for-the-daemon',
      SOME_OPERATOR_VARIABLE: 'not on the allow-list',
    };
    const panel = await startPanel(own.port, { ...own.env, ...secrets, TZ: 'UTC', LANG: 'C.UTF-8' });
    try {
      const pid = panel.child.pid!;
      const daemon = await waitUntil('the local daemon', () => localDaemonOf(pid));
      expect(await waitForDaemon(own.daemonPort)).toBe(401);
      // The attack: a server escaping to the daemon's process (or a crash dump of it) would find
      // the panel's key, its database and its mail credentials in the daemon's environment.
      const env = environOf(daemon.pid);
      for (const name of ['DATABASE_URL', ...Object.keys(secrets)]) expect(env).not.toHaveProperty(name);
      expect(JSON.stringify(env)).not.toContain(own.env.DATABASE_URL);
      expect(env).toMatchObject({ TZ: 'UTC', LANG: 'C.UTF-8', LOG_LEVEL: 'warn' });
      expect(env.PATH).toBeTruthy();

      process.kill(daemon.pid, 'SIGKILL');
      const again = await waitUntil('a new local daemon', () => {
        const found = localDaemonOf(pid);
        return found && found.pid !== daemon.pid ? found : undefined;
      });
      expect(await waitForDaemon(own.daemonPort)).toBe(401);
      expect(panel.output()).toContain('the local daemon exited unexpectedly');
      expect(panel.output()).toContain('"signal":"SIGKILL"');
      expect(await panel.stop()).toBe(0);
      // The panel's stop takes its daemon with it.
      expect(descendantsOf(pid)).toEqual([]);
      expect(() => process.kill(again.pid, 0)).toThrow();
    } finally {
      await own.cleanup();
    }
  });

  it('stops the panel and its daemon on Ctrl+C in `npm start`', async () => {
    const own = await ownPanel();
    const start = await startPanel(own.port, own.env, {
      args: ['scripts/start.mjs', '--no-build'],
      ownGroup: true,
    });
    try {
      const pgid = start.child.pid!;
      await waitUntil('the local daemon', () => localDaemonOf(pgid));
      expect(await waitForDaemon(own.daemonPort)).toBe(401);
      expect(groupMembers(pgid).map((p) => p.cmdline)).toEqual(
        expect.arrayContaining([expect.stringContaining('apps/daemon/src/main.ts')]),
      );
      // Ctrl+C: SIGINT to every process of the terminal's process group at once.
      const exited = new Promise<number | null>((resolve) => start.child.on('exit', (code) => resolve(code)));
      process.kill(-pgid, 'SIGINT');
      expect(await exited).toBe(0);
      // Nothing of the group keeps running: the daemon is gone before the panel exits. Orphans of
      // the panel's own (tsx's esbuild service) end when their pipe closes, a moment later, and a
      // zombie is already dead. The bound of 15 s is the panel's own kill timer, not measured here.
      expect(groupMembers(pgid).filter((p) => p.cmdline.includes('apps/daemon/src/main.ts'))).toEqual([]);
      await waitUntil('the group to end', () => groupMembers(pgid).every((p) => p.state === 'Z'));
    } finally {
      await own.cleanup();
    }
  });

  it('refuses to start with bad configuration, naming every problem', async () => {
    const child = spawn(process.execPath, PANEL, {
      cwd: root,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        LOG_LEVEL: 'nope',
      },
    });
    let output = '';
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(output).toContain('Invalid configuration');
    expect(output).toContain('PORT');
    expect(output).toContain('DATABASE_URL');
    expect(output).toContain('LOG_LEVEL');
  });
});
