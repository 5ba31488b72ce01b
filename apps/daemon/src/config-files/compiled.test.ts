import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, TOKEN, TOKEN_ID, waitUntil, writeDaemonFiles } from '../test-support/harness.ts';
import { RemoteStandIn } from '../test-support/remote-stand-in.ts';

/**
 * The compiled daemon (apps/daemon/dist/main.js, as `npm start` runs it) loads the parser worker
 * from its own bundle beside it (scripts/build-server.mjs): configuration files are rewritten there
 * too, and the over-size rule holds.
 */
const repoRoot = path.resolve(import.meta.dirname, '../../../..');
let remote: RemoteStandIn;
let root: string;
let child: ChildProcess;
let output = '';
let url = '';

beforeAll(async () => {
  const built = spawnSync(process.execPath, ['scripts/build-server.mjs', '--if-stale'], { cwd: repoRoot });
  expect(built.status, built.stderr.toString()).toBe(0);
  remote = new RemoteStandIn(TOKEN_ID, TOKEN);
  const files = await writeDaemonFiles(await remote.start());
  root = files.root;
  const raw = JSON.parse(await readFile(files.configFile, 'utf8')) as Record<string, any>;
  raw.system.sftp = { bind_port: 0 };
  await writeFile(files.configFile, JSON.stringify(raw));
  child = spawn(process.execPath, ['apps/daemon/dist/main.js', '--config', files.configFile], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  await waitUntil(
    () => {
      if (child.exitCode !== null) throw new Error(`the daemon exited: ${output}`);
      const line = output.split('\n').find((l) => l.includes('"daemon listening"'));
      if (line) url = (JSON.parse(line) as { url: string }).url;
      return url !== '';
    },
    60_000,
    'the compiled daemon to listen',
  );
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
  await remote?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

const api = async (method: string, p: string, body?: unknown) => {
  const res = await fetch(url + p, {
    method,
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
};

describe('the compiled daemon', () => {
  it('rewrites configuration files in its bundled worker and leaves over-size ones alone', async () => {
    const uuid = randomUUID();
    const big = `motd: ${'x'.repeat(1024 * 1024)}\n`;
    remote.servers.set(
      uuid,
      fixtureServer(uuid, {
        process: {
          configs: [
            { parser: 'yaml', file: 'config.yml', replace: [{ match: 'port', replace_with: '30300' }] },
            { parser: 'yaml', file: 'big.yml', replace: [{ match: 'port', replace_with: '30301' }] },
          ],
        },
      }),
    );
    expect((await api('POST', '/api/servers', { uuid, start_on_completion: false })).status).toBe(202);
    await waitUntil(() => remote.installReports.some((r) => r.uuid === uuid), 30_000, 'install report');
    const dir = path.join(root, 'volumes', uuid);
    await writeFile(path.join(dir, 'config.yml'), 'port: 1\n');
    await writeFile(path.join(dir, 'big.yml'), big);
    expect((await api('POST', `/api/servers/${uuid}/power`, { action: 'start' })).status).toBe(202);
    await waitUntil(async () => (await api('GET', `/api/servers/${uuid}`)).body.state === 'running', 30_000, 'running');
    expect(await readFile(path.join(dir, 'config.yml'), 'utf8')).toBe('port: 30300\n');
    expect(await readFile(path.join(dir, 'big.yml'), 'utf8')).toBe(big);
    await api('POST', `/api/servers/${uuid}/power`, { action: 'kill' });
  });
});
