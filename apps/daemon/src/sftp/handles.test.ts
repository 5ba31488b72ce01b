import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HandleTable } from './handles.ts';
import { WriteExtents } from './write-extents.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'talon-sftp-handles-'));
  await writeFile(path.join(dir, 'f'), 'x');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

// A client that leaves while an OPEN is still being served: the file is opened after the session
// ended. Its descriptor must not outlive the session (thousands of such opens would exhaust the
// daemon's descriptors, CVE-2026-52856 class).
it('a file opened after the session ended is closed at once, and its extent released', async () => {
  const handles = new HandleTable();
  const extents = new WriteExtents();
  handles.closeAll();
  const fh = await open(path.join(dir, 'f'), 'r+');
  const writing = extents.opened(await fh.stat());
  expect(() => handles.add({ kind: 'file', path: '/f', fh, writing })).toThrow('Session ended');
  expect(fh.fd).toBe(-1);
  // Released: the next open of the file starts a fresh entry.
  const fh2 = await open(path.join(dir, 'f'), 'r');
  const again = extents.opened(await fh2.stat());
  expect(again.extent).not.toBe(writing.extent);
  again.release();
  await fh2.close();
});
