import { randomUUID } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import tarStream from 'tar-stream';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, startStack, type Stack } from '../test-support/harness.ts';

const KIB = 1024;
const MIB = 1024 * KIB;
const LIMIT_BYTES = 8 * MIB;
const LIMIT_ENTRIES = 500;

async function collect(source: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await pipeline(
    source,
    new Writable({
      write(c: Buffer, _e, cb) {
        chunks.push(c);
        cb();
      },
    }),
  );
  return Buffer.concat(chunks);
}

/** `size` zero bytes, produced piece by piece (the test never holds them either). */
function zeros(size: number): Readable {
  const piece = Buffer.alloc(MIB);
  let left = size;
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const n = Math.min(piece.length, left);
      left -= n;
      this.push(piece.subarray(0, n));
    },
  });
}

/** A tar.gz of one file of `size` zeros: a few hundred KiB that expand to `size`. */
async function tarBomb(size: number): Promise<Buffer> {
  const pack = tarStream.pack();
  const gz = collect(pack.pipe(zlib.createGzip({ level: 9 })));
  const entry = pack.entry({ name: 'zeros.bin', size });
  await pipeline(zeros(size), entry);
  pack.finalize();
  return gz;
}

/** The same as a zip (deflate). */
async function zipBomb(size: number): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addReadStream(zeros(size), 'zeros.bin', { size });
  zip.end();
  return collect(zip.outputStream);
}

/** A tar.gz of `n` tiny files. */
async function manyEntries(n: number): Promise<Buffer> {
  const pack = tarStream.pack();
  for (let i = 0; i < n; i++) pack.entry({ name: `many/f${i}.txt` }, 'x');
  pack.finalize();
  return collect(pack.pipe(zlib.createGzip()));
}

/**
 * Archive bombs on a server WITHOUT a disk limit: the node's own limits
 * (`system.decompress_max_bytes`, `system.decompress_max_entries`) still refuse them, before
 * anything is written.
 */
describe('decompress limits (archive bombs without a disk quota)', () => {
  let stack: Stack;
  let dirs: string;
  let uuid: string;
  let dir: string;

  beforeAll(async () => {
    dirs = await mkdtemp('/var/tmp/talon-decompress-limits-');
    await chmod(dirs, 0o755);
    stack = await startStack({
      config: {
        system: {
          root_directory: path.join(dirs, 'lib'),
          data: path.join(dirs, 'volumes'),
          log_directory: path.join(dirs, 'log'),
          tmp_directory: path.join(dirs, 'tmp'),
          disk_check_interval: 5,
          decompress_max_bytes: LIMIT_BYTES,
          decompress_max_entries: LIMIT_ENTRIES,
        },
      },
    });
    const id = randomUUID();
    uuid = await stack.createInstalled(id, {
      settings: { build: { ...(fixtureServer(id).settings.build as object), disk_space: 0 } },
    });
    dir = path.join(stack.config.system.data, uuid);
  }, 60_000);
  afterAll(async () => {
    await stack?.dispose();
    if (dirs) await rm(dirs, { recursive: true, force: true });
  });

  /** Put the archive in `/<root>` and extract it there. */
  const decompress = async (root: string, file: string, archive: Buffer) => {
    await mkdir(path.join(dir, root), { recursive: true });
    await writeFile(path.join(dir, root, file), archive);
    return stack.api('POST', `/api/servers/${uuid}/files/decompress`, { root: `/${root}`, file });
  };
  const names = async (sub: string): Promise<string[]> =>
    readdir(path.join(dir, sub)).catch(() => [] as string[]);
  const bytesError = {
    error:
      'The archive is too large to extract: it expands to more than 8 MB, the decompression limit of this node.',
  };

  it('a tar.gz bomb (64 MiB of zeros in a few hundred KiB) is refused naming the limit; nothing written', async () => {
    const bomb = await tarBomb(64 * MIB);
    expect(bomb.length).toBeLessThan(512 * KIB);
    expect(await decompress('tb', 'bomb.tar.gz', bomb)).toMatchObject({ status: 400, body: bytesError });
    expect(await names('tb')).toEqual(['bomb.tar.gz']);
  });

  it('a zip bomb is refused the same way', async () => {
    const bomb = await zipBomb(64 * MIB);
    expect(bomb.length).toBeLessThan(512 * KIB);
    expect(await decompress('zb', 'bomb.zip', bomb)).toMatchObject({ status: 400, body: bytesError });
    expect(await names('zb')).toEqual(['bomb.zip']);
  });

  it('an archive of more entries than the limit is refused naming it; nothing written', async () => {
    expect(await decompress('me', 'many.tar.gz', await manyEntries(LIMIT_ENTRIES + 100))).toMatchObject({
      status: 400,
      body: {
        error: `The archive is too large to extract: it holds more than ${LIMIT_ENTRIES} entries, the decompression limit of this node.`,
      },
    });
    expect(await names('me')).toEqual(['many.tar.gz']);
  });

  it('archives within the limits still extract', async () => {
    expect((await decompress('ok', 'ok.tar.gz', await manyEntries(LIMIT_ENTRIES - 1))).status).toBe(204);
    expect(await names('ok/many')).toHaveLength(LIMIT_ENTRIES - 1);
    expect((await decompress('fits', 'fits.zip', await zipBomb(4 * MIB))).status).toBe(204);
    expect((await names('fits')).sort()).toEqual(['fits.zip', 'zeros.bin']);
  });
});
