import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import tarStream from 'tar-stream';

/** Name → text content of every entry of a .tar.gz held in memory. Tests only. */
export async function tarEntries(archive: Buffer): Promise<Map<string, string>> {
  const extract = tarStream.extract();
  Readable.from([zlib.gunzipSync(archive)]).pipe(extract);
  const out = new Map<string, string>();
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const c of entry as unknown as AsyncIterable<Buffer>) chunks.push(c);
    out.set(entry.header.name, Buffer.concat(chunks).toString());
  }
  return out;
}
