import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, fixtureServer, startStack, waitUntil, type Stack } from '../test-support/harness.ts';
import { signToken } from '../test-support/jwt-sign.ts';
import { PacedRequest, multipart } from '../test-support/paced-request.ts';

const KIB = 1024;
const MIB = 1024 * KIB;

/**
 * Uploads must not be held in memory and must never leave half a file behind: the signed-URL
 * upload (`POST /upload/file`) and the editor's `files/write` stream to a temporary file beside the
 * target, renamed into place only when everything arrived and every limit held.
 */
describe('upload limits (streamed uploads)', () => {
  let stack: Stack;
  let uuid: string;
  let dir: string;

  beforeAll(async () => {
    stack = await startStack({
      config: {
        api: { host: '127.0.0.1', port: 0, upload_limit: 1, upload_max_files: 3, upload_request_limit: 2 },
      },
    });
    const id = randomUUID();
    uuid = await stack.createInstalled(id, {
      settings: { build: { ...(fixtureServer(id).settings.build as object), disk_space: 0 } },
    });
    dir = path.join(stack.config.system.data, uuid);
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  /** Names in a directory of the server (none when it does not exist). */
  const names = async (sub: string): Promise<string[]> =>
    (await readdir(path.join(dir, sub)).catch(() => [] as string[])).sort();
  /** Size of the largest file in the directory (0 when none). */
  const largest = async (sub: string): Promise<number> => {
    let max = 0;
    for (const n of await names(sub)) max = Math.max(max, (await stat(path.join(dir, sub, n))).size);
    return max;
  };

  const upload = async (directory: string): Promise<PacedRequest> => {
    const t = await signToken(TOKEN, {
      scope: 'file-upload',
      exp: Math.floor(Date.now() / 1000) + 60,
      unique_id: randomUUID(),
      server_uuid: uuid,
    });
    return new PacedRequest(
      `${stack.url}/upload/file?token=${t}&directory=${encodeURIComponent(directory)}`,
      'POST',
      { 'Content-Type': multipart.contentType },
    );
  };
  const write = (file: string, length: number): PacedRequest =>
    new PacedRequest(
      `${stack.url}/api/servers/${uuid}/files/write?file=${encodeURIComponent(file)}`,
      'POST',
      {
        Authorization: `Bearer ${TOKEN}`,
        'Content-Type': 'text/plain',
        'Content-Length': String(length),
      },
    );

  it('upload: the file reaches the disk while the body is still arriving, and only whole', async () => {
    const req = await upload('/streamed');
    await req.write(multipart.fileHead('big.bin'));
    await req.writeBytes(512 * KIB);
    // Bytes on the server's disk before the request ended: the body is not held in memory.
    await waitUntil(async () => (await largest('streamed')) >= 256 * KIB, 10_000, 'a partial file on disk');
    // Not under its final name yet: a reader never sees half a file.
    expect(await names('streamed')).not.toContain('big.bin');
    await req.writeBytes(256 * KIB, 0x62);
    const res = await req.end(multipart.close);
    expect(res.status).toBe(200);
    expect(await names('streamed')).toEqual(['big.bin']);
    const data = await readFile(path.join(dir, 'streamed/big.bin'));
    expect(data.length).toBe(768 * KIB);
    expect(data.subarray(-1).toString()).toBe('b');
  });

  it('upload: a file over api.upload_limit is refused mid-stream and nothing is left behind', async () => {
    const req = await upload('/toobig');
    await req.write(multipart.fileHead('huge.bin'));
    const planned = 64 * MIB;
    await req.writeBytes(planned);
    const res = await req.end(multipart.close);
    expect([res.status, JSON.parse(res.text)]).toEqual([
      400,
      { error: 'File huge.bin is larger than the maximum file upload size of 1 MB.' },
    ]);
    // The answer came while the client was still sending: the daemon stopped reading at the limit.
    expect(req.sent).toBeLessThan(planned);
    expect(await names('toobig')).toEqual([]);
  });

  it('upload: more files than api.upload_max_files → 400 naming the limit, none written', async () => {
    const req = await upload('/many');
    for (let i = 0; i < 4; i++) {
      await req.write(multipart.fileHead(`f${i}.txt`, i === 0));
      await req.write(`file ${i}`);
    }
    const res = await req.end(multipart.close);
    expect([res.status, JSON.parse(res.text)]).toEqual([
      400,
      { error: 'An upload may contain at most 3 files.' },
    ]);
    expect(await names('many')).toEqual([]);
  });

  it('upload: more than api.upload_request_limit in one request → 413, earlier files removed too', async () => {
    const req = await upload('/total');
    for (let i = 0; i < 3; i++) {
      if (!(await req.write(multipart.fileHead(`part${i}.bin`, i === 0)))) break;
      await req.writeBytes(900 * KIB);
    }
    const res = await req.end(multipart.close);
    expect([res.status, JSON.parse(res.text)]).toEqual([
      413,
      { error: 'The upload is larger than the maximum of 2 MB per request.' },
    ]);
    expect(await names('total')).toEqual([]);
  });

  it('upload: a client that goes away mid-file leaves no temporary file and the old file intact', async () => {
    await mkdir(path.join(dir, 'gone'), { recursive: true });
    await writeFile(path.join(dir, 'gone/keep.bin'), 'OLD');
    const req = await upload('/gone');
    await req.write(multipart.fileHead('keep.bin'));
    await req.writeBytes(512 * KIB);
    await waitUntil(async () => (await names('gone')).length === 2, 10_000, 'the temporary file');
    req.abort();
    await waitUntil(async () => (await names('gone')).length === 1, 10_000, 'the temporary file removed');
    expect(await names('gone')).toEqual(['keep.bin']);
    expect(await readFile(path.join(dir, 'gone/keep.bin'), 'utf8')).toBe('OLD');
  });

  it('files/write: the body is streamed to disk and renamed into place when complete', async () => {
    await mkdir(path.join(dir, 'w'), { recursive: true });
    await writeFile(path.join(dir, 'w/config.txt'), 'OLD');
    await chmod(path.join(dir, 'w/config.txt'), 0o750);
    const req = write('/w/config.txt', 768 * KIB);
    await req.writeBytes(512 * KIB);
    await waitUntil(async () => (await largest('w')) >= 256 * KIB, 10_000, 'a partial file on disk');
    // The old content stays readable under the name until the new one is complete.
    expect(await readFile(path.join(dir, 'w/config.txt'), 'utf8')).toBe('OLD');
    await req.writeBytes(256 * KIB);
    const res = await req.end();
    expect(res.status).toBe(204);
    expect(await names('w')).toEqual(['config.txt']);
    const after = await stat(path.join(dir, 'w/config.txt'));
    expect(after.size).toBe(768 * KIB);
    // Replaced, not rewritten in place: the old file's permission bits are carried over.
    expect(after.mode & 0o777).toBe(0o750);
  });

  it('files/write: a body cut short leaves the old file and no temporary file', async () => {
    await mkdir(path.join(dir, 'cut'), { recursive: true });
    await writeFile(path.join(dir, 'cut/server.properties'), 'motd=old');
    const req = write('/cut/server.properties', 900 * KIB);
    await req.writeBytes(512 * KIB);
    await waitUntil(async () => (await names('cut')).length === 2, 10_000, 'the temporary file');
    req.abort();
    await waitUntil(async () => (await names('cut')).length === 1, 10_000, 'the temporary file removed');
    expect(await readFile(path.join(dir, 'cut/server.properties'), 'utf8')).toBe('motd=old');
  });

  it('files/write: refused before the body is read → the connection ends with the answer', async () => {
    await mkdir(path.join(dir, 'taken/dir'), { recursive: true });
    const req = write('/taken/dir', 512 * KIB);
    await req.writeBytes(64 * KIB);
    const res = await req.end();
    expect([res.status, JSON.parse(res.text)]).toEqual([
      400,
      { error: 'Cannot write file, name conflicts with an existing directory by the same name.' },
    ]);
    // Not kept alive waiting for the rest of a body nobody reads (it held the daemon's shutdown).
    expect(res.headers.connection).toBe('close');
    expect(await names('taken')).toEqual(['dir']);
  });
});
