import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedPanelEnv, freePort } from '../test-support/daemon.ts';
import { descendantsOf } from '../test-support/processes.ts';
import { localDaemonArgs } from './local-daemon.ts';

/**
 * What `npm start` runs: the server code built by scripts/build-server.mjs (when stale), the panel's
 * bundle, which runs the daemon's bundle. Paths the sources take from their own location (the
 * built-in eggs, the web app, the repository root) must still be right from apps/panel/dist.
 */
const root = path.resolve(import.meta.dirname, '../../../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'talon-compiled-'));
let env: Record<string, string>;
let panel: ReturnType<typeof spawn>;
let output = '';

async function until<T>(what: string, find: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (panel.exitCode !== null) throw new Error(`the panel exited: ${output}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  const built = spawnSync(process.execPath, ['scripts/build-server.mjs', '--if-stale'], { cwd: root });
  expect(built.status, built.stderr.toString()).toBe(0);
  // The web app too, as `npm start` builds it (the browser tests then find it fresh).
  const web = spawnSync(process.execPath, ['scripts/build-web.mjs'], { cwd: root, encoding: 'utf8' });
  expect(web.status, `${web.stdout}${web.stderr}`).toBe(0);
  // Below the ephemeral range and apart from the test daemons' (10000–17999) and browser tests' blocks.
  const allocation = 19_000 + Math.floor(Math.random() * 100) * 10;
  env = await embeddedPanelEnv({ dataDir, allocation, daemonPort: await freePort() });
  panel = spawn(process.execPath, ['apps/panel/dist/main.js'], { cwd: root, env });
  panel.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  panel.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  await until('the panel', () => (output.includes('Panel listening on') ? true : undefined));
});

afterAll(async () => {
  if (panel && panel.exitCode === null) {
    const exited = new Promise((r) => panel.once('exit', r));
    panel.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the compiled panel', () => {
  it('runs the compiled daemon, which answers', async () => {
    const daemon = await until('the local daemon', () =>
      descendantsOf(panel.pid!).find((p) => p.cmdline.includes('apps/daemon/dist/main.js')),
    );
    expect(daemon.cmdline).not.toContain('tsx');
    const status = await until('the daemon to answer', () =>
      fetch(`http://127.0.0.1:${env.LOCAL_DAEMON_PORT}/api/system`).then(
        (r) => r.status,
        () => undefined,
      ),
    );
    expect(status).toBe(401);
  });

  it('imported the built-in eggs from the repository, which the compiled CLI lists', () => {
    const res = spawnSync(process.execPath, ['apps/panel/dist/cli.js', 'egg:list'], { cwd: root, env });
    expect(res.status, res.stderr.toString()).toBe(0);
    expect(res.stdout.toString()).toContain('Generic Node.js App');
  });

  it('serves the built web app', async () => {
    const res = await fetch(`http://127.0.0.1:${env.PORT}/auth/login`);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('<div id="app">');
    const script = /<script type="module"[^>]* src="(\/assets\/[^"]+\.js)"/u.exec(page);
    expect(script, page).not.toBeNull();
    expect((await fetch(`http://127.0.0.1:${env.PORT}${script![1]}`)).status).toBe(200);
  });
});

describe('localDaemonArgs', () => {
  it('runs the daemon bundle from a bundle and the sources through tsx from the sources', () => {
    expect(localDaemonArgs('/c.json', 'file:///x/apps/panel/dist/main.js')).toEqual([
      '--max-semi-space-size=4',
      'apps/daemon/dist/main.js',
      '--config',
      '/c.json',
      '--exit-with-stdin',
    ]);
    expect(localDaemonArgs('/c.json', 'file:///x/apps/panel/src/embedded/local-daemon.ts')).toEqual([
      '--max-semi-space-size=4',
      '--import',
      'tsx',
      'apps/daemon/src/main.ts',
      '--config',
      '/c.json',
      '--exit-with-stdin',
    ]);
  });
});
