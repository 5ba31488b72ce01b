// The one-line node setup end to end: the admin mints a token, the daemon's `configure` command
// (a real process) redeems it and writes the config file, and a daemon started on that file is
// reachable from the panel.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/types.ts';
import type { TestClient } from '../../test-support/client.ts';
import { freePort } from '../../test-support/daemon.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { SETUP_TOKEN_UNKNOWN } from './node-setup.service.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../../..');
const DAEMON_MAIN = path.join(ROOT, 'apps/daemon/src/main.ts');

let panel: TestPanel;
let admin: User;
let session: TestClient;
let dir: string;
let nodeId: number;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The daemon's command line, as `npm run -s daemon -- …` runs it (from sources here). */
function daemonCli(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', DAEMON_MAIN, ...args],
      {
        cwd: ROOT,
        timeout: 60_000,
        env: { ...process.env, TALON_DAEMON_CONFIG: path.join(dir, 'unused.json') },
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

async function mintToken(): Promise<{ token: string; command: string }> {
  const res = await session.post(`/api/application/nodes/${nodeId}/setup-token`);
  expect(res.status, res.text).toBe(201);
  return res.body.attributes as { token: string; command: string };
}

/** The arguments after `configure` in the command the API gave. */
function configureArgs(command: string): string[] {
  const words = command.split(' ');
  expect(words.slice(0, 5)).toEqual(['npm', 'run', '-s', 'daemon', '--']);
  expect(words[5]).toBe('configure');
  return words.slice(6);
}

beforeAll(async () => {
  panel = await startTestPanel();
  admin = await panel.createUser({ admin: true });
  session = await panel.signedIn(admin);
  dir = mkdtempSync(path.join(tmpdir(), 'talon-node-setup-'));
  const location = await session.post('/api/application/locations', { short: 'setup' });
  const node = await session.post('/api/application/nodes', {
    name: 'New machine',
    location_id: location.body.attributes.id,
    fqdn: '127.0.0.1',
    scheme: 'http',
    memory: 2048,
    memory_overallocate: 0,
    disk: 4096,
    disk_overallocate: 0,
    daemon_listen: await freePort(),
    daemon_sftp: await freePort(),
    daemon_base: path.join(dir, 'volumes'),
  });
  expect(node.status, node.text).toBe(201);
  nodeId = node.body.attributes.id;
}, 60_000);
afterAll(async () => {
  await panel?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('daemon configure', () => {
  it('--help prints the usage with an example; bad arguments exit 2', async () => {
    const help = await daemonCli('configure', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: npm run -s daemon -- configure --panel-url URL --token TOKEN');
    expect(help.stdout).toContain('Example:');
    const missing = await daemonCli('configure', '--token', 'x');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--panel-url (http:// or https://) and --token are required');
    const top = await daemonCli('--help');
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('configure');
  });

  it('writes a new 0600 file with the node configuration; the token then no longer works', async () => {
    const { command } = await mintToken();
    const file = path.join(dir, 'fresh', 'etc', 'daemon.json');
    const run = await daemonCli('configure', ...configureArgs(command), '--config', file);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Wrote ${file} (mode 0600)`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const key = await session.get(`/api/application/nodes/${nodeId}/configuration`);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(key.body);

    const again = await daemonCli('configure', ...configureArgs(command), '--config', file);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(SETUP_TOKEN_UNKNOWN);
    expect(again.stdout).toBe('');
  });

  it('updates an existing file keeping local settings, and a daemon starts on it and is reachable', async () => {
    const file = path.join(dir, 'daemon.json');
    const local = {
      system: {
        root_directory: path.join(dir, 'state'),
        log_directory: path.join(dir, 'logs'),
        tmp_directory: path.join(dir, 'tmp'),
        backup_directory: path.join(dir, 'backups'),
      },
      runtime: { stats_interval_ms: 500 },
      token: 'an-old-token-the-panel-replaces',
    };
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, JSON.stringify(local), { mode: 0o644 });
    const { command } = await mintToken();
    const run = await daemonCli('configure', ...configureArgs(command), '--config', file);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Updated ${file} (mode 0600)`);
    expect(run.stdout).toContain(`Start the daemon: npm run daemon -- --config ${file}`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const written = JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>;
    expect(written.system.root_directory).toBe(local.system.root_directory);
    expect(written.system.data).toBe(path.join(dir, 'volumes'));
    expect(written.runtime).toEqual({ stats_interval_ms: 500 });
    expect(written.token).not.toBe(local.token);

    const child = spawn(process.execPath, ['--import', 'tsx', DAEMON_MAIN, '--config', file], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn' },
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    try {
      const deadline = Date.now() + 30_000;
      let health: Record<string, unknown> = {};
      while (Date.now() < deadline && child.exitCode === null) {
        health = (await session.get(`/api/application/nodes/${nodeId}/health`)).body.attributes;
        if (health.reachable === true) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(health, output).toMatchObject({ reachable: true, version: '0.1.0', error: null });
    } finally {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
    }
  });
});
