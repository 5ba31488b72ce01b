import { randomUUID } from 'node:crypto';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, startStack, type Stack } from '../test-support/harness.ts';
import { signToken } from '../test-support/jwt-sign.ts';
import { RACE_DEADLINE_MS, raceUntilMet, startSwapper } from '../test-support/swapper.ts';
import { tarEntries } from '../test-support/archives.ts';

// The incumbent's 1.0.0-beta.8 advisory and CVE-2024-27102, replayed through the running daemon:
// a server directory holds a symlink to a "host" directory (made over SFTP, or by the game
// server), or swaps a directory for one as fast as it can while the daemon reads and walks.

const HOST_SECRET = 'HOST SECRET';

describe('server files with links to the host, through the daemon (1.0.0-beta.8, CVE-2024-27102)', () => {
  let stack: Stack;
  let uuid: string;
  let dir: string;
  let host: string;

  beforeAll(async () => {
    stack = await startStack();
    uuid = await stack.createInstalled();
    dir = stack.daemon.manager.get(uuid)!.dir;
    host = await mkdtemp(path.join(os.tmpdir(), 'talon-host-'));
    await mkdir(path.join(host, 'etc'));
    await writeFile(path.join(host, 'secret'), HOST_SECRET);
    await writeFile(path.join(host, 'etc', 'shadow'), HOST_SECRET);
    await chmod(path.join(host, 'secret'), 0o600);
  }, 60_000);

  afterAll(async () => {
    await stack?.dispose();
    if (host) await rm(host, { recursive: true, force: true });
  });

  /** Owner, mode and content of everything in the host directory. */
  const hostState = async (): Promise<string[]> => {
    const out: string[] = [];
    for (const rel of ['', 'secret', 'etc', 'etc/shadow']) {
      const st = await lstat(path.join(host, rel));
      out.push(`${rel} ${st.uid}:${st.gid} ${(st.mode & 0o7777).toString(8)}`);
      if (st.isFile()) out.push(await readFile(path.join(host, rel), 'utf8'));
    }
    return out;
  };
  const call = (route: string, body: unknown) =>
    stack.api('POST', `/api/servers/${uuid}/files/${route}`, body);

  it('replay of 1.0.0-beta.8: `ln -s <host> evil`; a start (ownership pass), compress and delete leave the host alone', async () => {
    const before = await hostState();
    await symlink(host, path.join(dir, 'evil'));

    const ws = await stack.startedWs(uuid); // the ownership pass runs before every start
    ws.close();
    await stack.api('POST', `/api/servers/${uuid}/power`, { action: 'kill' });
    expect(await hostState()).toEqual(before);
    if (process.getuid?.() === 0) {
      // The pass did run: the server's own files (and the link itself) belong to the server user.
      expect((await stat(path.join(dir, 'game.js'))).uid).toBe(stack.config.runtime.uid);
      expect((await lstat(path.join(dir, 'evil'))).uid).toBe(stack.config.runtime.uid);
    }

    const res = await call('compress', { root: '/', files: ['evil', 'evil/secret', 'evil/etc'] });
    expect(res.status).toBe(200);
    const name = (res.body as { name: string }).name;
    const entries = await tarEntries(await readFile(path.join(dir, name)));
    expect([...entries.keys()]).toEqual([]);

    expect((await call('delete', { root: '/', files: ['evil'] })).status).toBe(204);
    expect(await readdir(dir)).not.toContain('evil');
    expect(await hostState()).toEqual(before);
  });

  it(
    'files/contents and a signed download while a directory swaps with a link to the host: never host content',
    { timeout: 2 * RACE_DEADLINE_MS },
    async () => {
      const now = Math.floor(Date.now() / 1000);
      const download = () =>
        signToken(TOKEN, {
          scope: 'file-download',
          iat: now,
          nbf: now - 300,
          exp: now + 900,
          unique_id: randomUUID(),
          server_uuid: uuid,
          file_path: 'evil/secret',
        });
      const seen: Record<string, number> = {};
      const swapper = startSwapper(path.join(dir, 'evil'), host, { secret: 'inside' });
      try {
        await swapper.ready;
        // On until both states were met (a read of the inside file and a refused one), within a bound.
        await raceUntilMet(
          async (i) => {
            const res =
              i % 2 === 0
                ? await fetch(`${stack.url}/api/servers/${uuid}/files/contents?file=evil/secret`, {
                    headers: { Authorization: `Bearer ${TOKEN}` },
                  })
                : await fetch(`${stack.url}/download/file?token=${encodeURIComponent(await download())}`);
            const text = await res.text();
            const key = res.status === 200 ? `200 ${text}` : String(res.status);
            seen[key] = (seen[key] ?? 0) + 1;
          },
          () => Boolean(seen['200 inside'] && seen['404']),
          300,
        );
      } finally {
        await swapper.stop();
      }
      expect(Object.keys(seen).filter((k) => k.includes(HOST_SECRET))).toEqual([]);
      expect(Object.keys(seen).every((k) => ['200 inside', '200 ', '404'].includes(k))).toBe(true);
      expect(seen['200 inside']).toBeGreaterThan(0);
      expect(seen['404']).toBeGreaterThan(0);
      expect(await readFile(path.join(host, 'secret'), 'utf8')).toBe(HOST_SECRET);
    },
  );
});
