import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TestClient } from './test-support/client.ts';
import { createTestDatabase, type TestDatabase } from './test-support/database.ts';

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

afterAll(async () => {
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the panel process', () => {
  it('creates and prints the first admin once, who can sign in; a restart keeps the data', async () => {
    database = await createTestDatabase();
    const env = { DATA_DIR: dataDir, DATABASE_URL: database.url };
    const port = 20000 + Math.floor(Math.random() * 20000);

    const first = await startPanel(port, env);
    const match = /Admin user created: username=(\S+) password=(\S+)/u.exec(first.output());
    expect(match).not.toBeNull();
    const [, username = '', password = ''] = match ?? [];
    const client = new TestClient(`http://127.0.0.1:${port}`);
    const login = await client.login(username, password);
    expect(login.status).toBe(200);
    expect(login.body.data.user.root_admin).toBe(true);
    const created = await client.post('/api/client/account/api-keys', { description: 'kept across restarts' });
    expect(created.status).toBe(200);
    expect(await first.stop()).toBe(0);

    const second = await startPanel(port, env);
    expect(second.output()).not.toContain('Admin user created');
    const again = new TestClient(`http://127.0.0.1:${port}`);
    expect((await again.login(username, password)).status).toBe(200);
    const keys = await again.get('/api/client/account/api-keys');
    expect(keys.body.data.map((k: any) => k.attributes.description)).toEqual(['kept across restarts']);
    expect(await second.stop()).toBe(0);
  });

  it('refuses to start with bad configuration, naming every problem', async () => {
    const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['apps/panel/src/main.ts'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'nope' },
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
