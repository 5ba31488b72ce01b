// The daemon's `configure` command against a stand-in panel (a local HTTP server answering the
// setup route): which URLs it refuses before asking anything, and that the file it writes can never
// be redirected onto another file by a link at its path or at a temporary name next to it.
// The whole flow with the real panel: apps/panel/src/modules/nodes/node-setup.daemon.test.ts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configure } from './configure.ts';

const TOKEN = 'A'.repeat(48);
const DOCUMENT = {
  uuid: 'node-uuid',
  token_id: 'tid',
  token: 'the-node-secret',
  remote: 'http://panel.test',
};
/** What the stand-in panel adds to the document (a test sets it). */
let extra: Record<string, unknown> = {};

let panel: Server;
let panelUrl: string;
const requests: string[] = [];
let dir: string;
let out: string;

beforeAll(async () => {
  panel = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ...DOCUMENT, ...extra }));
  });
  await new Promise<void>((resolve) => panel.listen(0, '127.0.0.1', resolve));
  panelUrl = `http://127.0.0.1:${(panel.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => panel.close(resolve));
});
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'talon-configure-'));
  requests.length = 0;
  extra = {};
  out = '';
  const capture = (...args: unknown[]) => {
    out += `${args.join(' ')}\n`;
  };
  vi.spyOn(console, 'log').mockImplementation(capture);
  vi.spyOn(console, 'error').mockImplementation(capture);
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const run = (file: string, url = panelUrl, token = TOKEN) =>
  configure(['--panel-url', url, '--token', token, '--config', file], {});

describe('daemon configure', () => {
  it('refuses a panel URL that is not plain http(s), asking nothing and writing nothing', async () => {
    const file = path.join(dir, 'daemon.json');
    for (const url of [
      'file:///etc/passwd',
      'ftp://127.0.0.1/',
      'javascript:alert(1)',
      'http:/127.0.0.1',
      '127.0.0.1:8080',
      `${panelUrl}?next=http://elsewhere`,
      `${panelUrl}#x`,
      panelUrl.replace('http://', 'http://user:pass@'),
    ]) {
      expect(await run(file, url), url).toBe(2);
    }
    expect(out).toContain('--panel-url (http:// or https://)');
    expect(requests).toEqual([]);
    expect(() => lstatSync(file)).toThrow();
  });

  it('asks the setup route of the panel given, the token encoded into one path segment', async () => {
    const file = path.join(dir, 'daemon.json');
    expect(await run(file, `${panelUrl}/`), out).toBe(0);
    expect(await run(file, panelUrl, '../../x?y')).toBe(0);
    expect(requests).toEqual([`/api/remote/node-setup/${TOKEN}`, '/api/remote/node-setup/..%2F..%2Fx%3Fy']);
  });

  it("takes from the panel only what the panel manages: the node's own runtime and folders stay", async () => {
    const file = path.join(dir, 'daemon.json');
    const local = {
      runtime: { allow_unconfined: false, uid: 988 },
      system: { root_directory: '/var/lib/talon' },
    };
    writeFileSync(file, JSON.stringify(local));
    extra = {
      runtime: { allow_unconfined: true, uid: 1, hidden_paths: [] },
      system: { data: '/srv/volumes', root_directory: '/', sftp: { bind_port: 2022 } },
      allowed_origins: ['*'],
    };
    expect(await run(file), out).toBe(0);
    const written = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(written).toEqual({
      ...DOCUMENT,
      runtime: local.runtime,
      system: { root_directory: '/var/lib/talon', data: '/srv/volumes', sftp: { bind_port: 2022 } },
    });
  });

  it('replaces a link at the config path with its own 0600 file; the file it pointed to is unchanged', async () => {
    const victim = path.join(dir, 'victim.json');
    writeFileSync(victim, '{"keep":"me"}', { mode: 0o644 });
    const file = path.join(dir, 'daemon.json');
    symlinkSync(victim, file);
    expect(await run(file), out).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('{"keep":"me"}');
    expect(statSync(victim).mode & 0o777).toBe(0o644);
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject(DOCUMENT);
  });

  it('never writes through a link planted at a temporary name next to the file', async () => {
    const victim = path.join(dir, 'victim.txt');
    writeFileSync(victim, 'untouched', { mode: 0o644 });
    const file = path.join(dir, 'daemon.json');
    // The name a temporary file derived from the process id would have.
    symlinkSync(victim, `${file}.${process.pid}.tmp`);
    expect(await run(file), out).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(statSync(victim).mode & 0o777).toBe(0o644);
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject(DOCUMENT);
  });
});
