import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TestClient } from './test-support/client.ts';
import { freePort } from './test-support/daemon.ts';
import { createTestDatabase, type TestDatabase } from './test-support/database.ts';
import { TestSocket } from './test-support/socket.ts';

/*
 * What a newcomer does after `npm ci && npm start`, step by step, against the real processes:
 *   1. start the panel (it starts its local daemon and imports the built-in eggs);
 *   2. create a user and a server from a built-in egg with the CLI;
 *   3. sign in, open the console websocket, start the server, send a command, stop it.
 * The README's "Your first server" section is this script in prose.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'talon-newcomer-'));
let database: TestDatabase | undefined;
let stopPanel: (() => Promise<void>) | undefined;

afterAll(async () => {
  // The panel stops its daemon and closes the database before it exits: only then is the database
  // free to drop (waiting for the exit, not for a second that a loaded machine may not keep).
  await stopPanel?.();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the newcomer flow', () => {
  it('start → user → server from a built-in egg → console → start → command → stop', async () => {
    database = await createTestDatabase();
    const port = await freePort();
    const env = {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: `http://127.0.0.1:${port}`,
      LOCAL_DAEMON_PORT: String(await freePort()),
      LOCAL_SFTP_PORT: String(await freePort()),
      LOCAL_ALLOCATIONS: '42000-42002',
      LOG_LEVEL: 'warn',
    };
    const tsx = path.join(root, 'node_modules/.bin/tsx');

    // 1. npm start (which runs the panel with Node loading tsx, without the tsx command's signal relay)
    const panel = spawn(process.execPath, ['--import', 'tsx', 'apps/panel/src/main.ts'], { cwd: root, env });
    stopPanel = () =>
      new Promise<void>((resolve) => {
        if (panel.exitCode !== null || panel.signalCode !== null) return resolve();
        panel.once('exit', () => resolve());
        panel.kill('SIGTERM');
      });
    let output = '';
    panel.stdout.on('data', (c: Buffer) => (output += c.toString()));
    panel.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const deadline = Date.now() + 60_000;
    while (!output.includes('Panel listening on')) {
      if (Date.now() > deadline || panel.exitCode !== null) throw new Error(output);
      await new Promise((r) => setTimeout(r, 100));
    }

    // 2. npm run panel -- user:create / egg:list / server:create
    const cli = (...args: string[]) => {
      const res = spawnSync(tsx, ['apps/panel/src/cli/main.ts', ...args], {
        cwd: root,
        env,
        encoding: 'utf8',
      });
      expect(res.status, res.stderr).toBe(0);
      return res.stdout;
    };
    cli(
      'user:create',
      '--email',
      'player@example.com',
      '--username',
      'player',
      '--password',
      'a-good-password',
    );
    const eggs = cli('egg:list');
    const eggId = /^\s*(\d+)\s+Node\.js Game Server/mu.exec(eggs)?.[1];
    expect(eggId, eggs).toBeDefined();
    const created = cli(
      'server:create',
      '--owner',
      'player',
      '--egg',
      eggId ?? '',
      '--name',
      'My first server',
      '--memory',
      '256',
    );
    const identifier = /\(([0-9a-f]{8})\)/u.exec(created)?.[1] ?? '';
    expect(identifier).toHaveLength(8);

    // 3. the API, as the web app or a bot uses it
    const client = new TestClient(`http://127.0.0.1:${port}`);
    expect((await client.login('player', 'a-good-password')).status).toBe(200);
    for (let i = 0; ; i++) {
      const details = await client.get(`/api/client/servers/${identifier}`);
      if (details.body.attributes?.status === null) break;
      if (i > 240) throw new Error(`installation did not finish: ${details.text}\n${output}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const { token, socket: url } = (await client.get(`/api/client/servers/${identifier}/websocket`)).body
      .data;
    const socket = await TestSocket.open(url, `http://127.0.0.1:${port}`);
    socket.send('auth', token);
    await socket.waitFor((m) => m.event === 'auth success');

    const start = socket.mark();
    socket.send('set state', 'start');
    await socket.waitFor((m) => m.event === 'status' && m.args?.[0] === 'running', 30_000, start);
    socket.send('send command', 'say hello from the newcomer');
    await socket.waitFor(
      (m) => m.event === 'console output' && (m.args?.[0] ?? '').includes('hello from the newcomer'),
    );
    const stop = socket.mark();
    socket.send('set state', 'stop');
    await socket.waitFor((m) => m.event === 'status' && m.args?.[0] === 'offline', 30_000, stop);
    socket.close();
  }, 120_000); // a whole `npm start` panel, three CLI processes, an install and a start/stop
});
