import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import tarStream from 'tar-stream';
import { insideScope, leadsIntoScope } from '@talon/shared/files/scope';
import { entryParts } from '../fs/archive.ts';

/**
 * Whether a folder-scoped user may receive this archive entry: anything inside their folders (a hard
 * link only when what it names is inside too), and the directories on the way to them so the tree
 * unpacks in place. Names that would leave the archive's root are never passed on.
 */
export function entryInScope(
  folders: readonly string[],
  header: Pick<tarStream.Header, 'name' | 'type' | 'linkname'>,
): boolean {
  const parts = entryParts(header.name);
  if (!parts) return false;
  const clean = `/${parts.join('/')}`;
  if (header.type === 'directory' && leadsIntoScope(folders, clean)) return true;
  if (!insideScope(folders, clean)) return false;
  if (header.type === 'link') {
    const target = entryParts(header.linkname ?? '/');
    return target !== null && target.length > 0 && insideScope(folders, `/${target.join('/')}`);
  }
  return true;
}

/**
 * A local backup (.tar.gz read from `src`) cut down to the entries inside `folders`, as a new
 * .tar.gz stream: what a folder-scoped subuser's backup-download URL serves, so a backup never shows
 * them files their folders do not hold. Read and written as it streams (nothing is held whole); a
 * damaged archive ends the stream with an error, so the download is cut off rather than completed.
 */
export function scopedArchive(src: Readable, folders: readonly string[]): Readable {
  const extract = tarStream.extract();
  const pack = tarStream.pack();
  const out = zlib.createGzip({ level: 1 });
  extract.on('entry', (header, content, next) => {
    if (!entryInScope(folders, header)) {
      content.on('end', () => next());
      content.resume();
      return;
    }
    content.pipe(pack.entry(header, (err) => next(err ?? undefined)));
  });
  extract.on('finish', () => pack.finalize());
  const fail = (err: unknown) => {
    src.destroy();
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  };
  pipeline(src, zlib.createGunzip(), extract).catch(fail);
  pipeline(pack, out).catch(fail);
  return out;
}
