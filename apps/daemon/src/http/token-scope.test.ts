import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import tarStream from 'tar-stream';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, startStack, waitUntil, type Stack } from '../test-support/harness.ts';
import { signToken } from '../test-support/jwt-sign.ts';

/**
 * GHSA-8r6w-3qq5-4p4r / CVE-2026-54593 (protocol §9.2b): every panel-signed token names its one
 * purpose in `scope`, and each daemon route accepts only its own. Before, any token signed with the
 * node key was good for every route: a console token uploaded anywhere.
 */
describe('token scope: each route accepts only its own purpose (real daemon)', () => {
  let stack: Stack;
  let uuid: string;
  let dir: string;
  const invalid = { error: 'The token provided is not valid or has expired.' };

  beforeAll(async () => {
    stack = await startStack();
    uuid = await stack.createInstalled();
    dir = stack.daemon.manager.get(uuid)!.dir;
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  const now = (): number => Math.floor(Date.now() / 1000);
  /** A token as the panel signs it for a subuser, with the given claims on top. */
  const token = (claims: Record<string, unknown>): Promise<string> =>
    signToken(TOKEN, {
      iat: now(),
      nbf: now() - 300,
      exp: now() + 600,
      unique_id: randomUUID(),
      server_uuid: uuid,
      user_uuid: randomUUID(),
      ...claims,
    });
  const upload = async (t: string, directory: string, name: string, body: string): Promise<Response> => {
    const form = new FormData();
    form.append('files', new Blob([body]), name);
    return fetch(
      `${stack.url}/upload/file?token=${encodeURIComponent(t)}&directory=${encodeURIComponent(directory)}`,
      {
        method: 'POST',
        body: form,
      },
    );
  };
  const download = (t: string): Promise<Response> =>
    fetch(`${stack.url}/download/file?token=${encodeURIComponent(t)}`);
  /** Backs the server up (the daemon's own adapter) and waits for the report; its uuid. */
  const backedUp = async (): Promise<string> => {
    const id = randomUUID();
    const made = await stack.api('POST', `/api/servers/${uuid}/backup`, {
      adapter: 'wings',
      uuid: id,
      ignore: '',
    });
    expect(made.status).toBe(202);
    await waitUntil(() => stack.remote.backupReports.some((r) => r.uuid === id), 30_000, 'backup report');
    return id;
  };
  /** The entry names of a downloaded .tar.gz. */
  const entryNames = async (res: Response): Promise<string[]> => {
    const extract = tarStream.extract();
    const names: string[] = [];
    const done = (async () => {
      for await (const e of extract) {
        names.push(e.header.name);
        e.resume();
      }
    })();
    extract.end(gunzipSync(Buffer.from(await res.arrayBuffer())));
    await done;
    return names;
  };
  const backup = (t: string): Promise<Response> =>
    fetch(`${stack.url}/download/backup?token=${encodeURIComponent(t)}`);

  it('replay: a console-only subuser scoped to /plugins cannot upload over /server.js with their websocket token', async () => {
    await writeFile(path.join(dir, 'server.js'), 'original');
    // What the panel hands a subuser with control.console only, limited to /plugins, for the console.
    const consoleToken = await token({
      scope: 'websocket',
      permissions: ['websocket.connect', 'control.console'],
    });
    const res = await upload(consoleToken, '/', 'server.js', 'owned');
    expect([res.status, await res.json()]).toEqual([403, invalid]);
    expect(await readFile(path.join(dir, 'server.js'), 'utf8')).toBe('original');
  });

  it('replay: a download URL cannot upload (nor can a backup or transfer token, nor one without scope)', async () => {
    await writeFile(path.join(dir, 'server.js'), 'original');
    for (const scope of ['file-download', 'backup-download', 'transfer', undefined, 'websocket', 'bogus']) {
      const t = await token({ scope, file_path: '/server.js', backup_uuid: randomUUID() });
      const res = await upload(t, '/', 'server.js', 'owned');
      expect([scope, res.status, await res.json()]).toEqual([scope, 403, invalid]);
    }
    expect(await readFile(path.join(dir, 'server.js'), 'utf8')).toBe('original');
  });

  it('each route takes only its own scope: download ← file-download, backup ← backup-download', async () => {
    await writeFile(path.join(dir, 'readme.txt'), 'hello');
    for (const scope of ['file-upload', 'backup-download', 'transfer', 'websocket', undefined]) {
      const res = await download(await token({ scope, file_path: '/readme.txt' }));
      expect([scope, res.status, await res.json()]).toEqual([scope, 403, invalid]);
    }
    const good = await download(await token({ scope: 'file-download', file_path: '/readme.txt' }));
    expect([good.status, await good.text()]).toEqual([200, 'hello']);

    for (const scope of ['file-download', 'file-upload', 'transfer', 'websocket', undefined]) {
      const res = await backup(await token({ scope, backup_uuid: randomUUID() }));
      expect([scope, res.status, await res.json()]).toEqual([scope, 403, invalid]);
    }
    // The right scope gets past the token check: an unknown backup is the backup route's 404.
    const missing = await backup(await token({ scope: 'backup-download', backup_uuid: randomUUID() }));
    expect(missing.status).toBe(404);

    const up = await upload(await token({ scope: 'file-upload' }), '/', 'new.txt', 'new');
    expect(up.status).toBe(200);
    expect(await readFile(path.join(dir, 'new.txt'), 'utf8')).toBe('new');
  });

  it('a backup-download token without its backup is refused', async () => {
    const noBackup = await backup(await token({ scope: 'backup-download' }));
    expect([noBackup.status, await noBackup.json()]).toEqual([403, invalid]);
  });

  it("a backup-download URL serves only its own server's backup (another server's is not found)", async () => {
    await writeFile(path.join(dir, 'in-backup.txt'), 'data');
    const id = await backedUp();
    const other = await stack.createInstalled();
    // a URL signed for another server of this node, naming this server's backup
    const stranger = await backup(
      await token({ scope: 'backup-download', backup_uuid: id, server_uuid: other }),
    );
    expect([stranger.status, await stranger.json()]).toEqual([404, { error: expect.any(String) as string }]);
    const own = await backup(await token({ scope: 'backup-download', backup_uuid: id }));
    expect(own.status).toBe(200);
    expect(await entryNames(own)).toContain('in-backup.txt');
  });

  it("a folder-scoped subuser's backup URL serves only their folders' entries", async () => {
    await mkdir(path.join(dir, 'plugins', 'deep'), { recursive: true });
    await mkdir(path.join(dir, 'world', 'region'), { recursive: true });
    await writeFile(path.join(dir, 'plugins', 'a.jar'), 'jar');
    await writeFile(path.join(dir, 'plugins', 'deep', 'b.yml'), 'b');
    await writeFile(path.join(dir, 'world', 'region', 'r.mca'), 'r');
    await writeFile(path.join(dir, 'world', 'level.dat'), 'level');
    await writeFile(path.join(dir, 'server.js'), 'secret');
    const id = await backedUp();

    const scoped = await backup(
      await token({ scope: 'backup-download', backup_uuid: id, file_scope: ['/plugins', '/world/region'] }),
    );
    expect(scoped.status).toBe(200);
    const names = (await entryNames(scoped)).map((n) => n.replace(/\/$/, '')).sort();
    expect(names).toEqual([
      'plugins',
      'plugins/a.jar',
      'plugins/deep',
      'plugins/deep/b.yml',
      'world',
      'world/region',
      'world/region/r.mca',
    ]);
  });

  it('a websocket refuses a signed-URL token (and one without scope) in auth', async () => {
    for (const scope of ['file-download', 'file-upload', 'backup-download', undefined]) {
      const ws = await stack.ws(uuid);
      ws.send('auth', await stack.token(uuid, { scope }));
      const answer = await ws.waitFor((m) => m.event === 'jwt error' || m.event === 'auth success');
      expect([scope, answer]).toEqual([
        scope,
        { event: 'jwt error', args: ['jwt: token scope is not websocket'] },
      ]);
      ws.close();
    }
    const ws = await stack.ws(uuid);
    ws.send('auth', await stack.token(uuid, { scope: 'websocket' }));
    await ws.waitFor((m) => m.event === 'auth success');
  });

  it('an upload URL stops working when its server is suspended (409, nothing written)', async () => {
    const t = await token({ scope: 'file-upload' });
    const fixture = stack.remote.servers.get(uuid)!;
    fixture.settings = { ...fixture.settings, suspended: true };
    try {
      expect((await stack.api('POST', `/api/servers/${uuid}/sync`)).status).toBe(204);
      const res = await upload(t, '/', 'while-suspended.txt', 'x');
      expect([res.status, await res.json()]).toEqual([
        409,
        { error: 'Cannot upload to a server that is suspended.' },
      ]);
      await expect(readFile(path.join(dir, 'while-suspended.txt'))).rejects.toThrow(/ENOENT/);
    } finally {
      fixture.settings = { ...fixture.settings, suspended: false };
      await stack.api('POST', `/api/servers/${uuid}/sync`);
    }
  });
});
