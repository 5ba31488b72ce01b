import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TestClient } from './test-support/client.ts';
import { createTestDatabase, type TestDatabase } from './test-support/database.ts';
import { freePort } from './test-support/daemon.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'talon-main-'));
let database: TestDatabase | undefined;

/** Runs the real panel entry point until it listens; returns its output so far and a stop function. */
async function startPanel(port: number, env: Record<string, string>) {
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['apps/panel/src/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
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
  return { output: () => output, stop };
}

/** The daemon's answer to an unauthenticated request (401 once it is up). */
async function waitForDaemon(port: number): Promise<number> {
  const deadline = Date.now() + 30_000;
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

describe('the panel process', () => {
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

  it('refuses to start with bad configuration, naming every problem', async () => {
    const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['apps/panel/src/main.ts'], {
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
