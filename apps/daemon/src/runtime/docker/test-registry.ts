import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import tarStream from 'tar-stream';

/** A registry on 127.0.0.1 (which Docker reaches over plain HTTP) serving one image, for pull tests. */
export interface TestRegistry {
  /** `127.0.0.1:<port>` */
  host: string;
  /** The compressed size of the image's one layer, as the engine reports it while pulling. */
  layerBytes: number;
  close(): void;
}

const sha256 = (data: Buffer | string): string => `sha256:${createHash('sha256').update(data).digest('hex')}`;

async function tarOf(files: Record<string, Buffer>): Promise<Buffer> {
  const pack = tarStream.pack();
  for (const [name, content] of Object.entries(files)) pack.entry({ name, mode: 0o644 }, content);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack as unknown as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * Serves `<repository>:<tag>` (Docker image manifest v2, one layer of `layerMiB` random bytes, so
 * gzip cannot shrink it) under the registry v2 API, the calls an engine makes to pull.
 */
export async function startTestRegistry(
  repository: string,
  tag: string,
  layerMiB: number,
): Promise<TestRegistry> {
  const tar = await tarOf({ 'payload.bin': randomBytes(layerMiB * 1024 * 1024) });
  const layer = gzipSync(tar);
  const config = Buffer.from(
    JSON.stringify({
      architecture: 'amd64',
      os: 'linux',
      config: {},
      rootfs: { type: 'layers', diff_ids: [sha256(tar)] },
    }),
  );
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.docker.distribution.manifest.v2+json',
      config: {
        mediaType: 'application/vnd.docker.container.image.v1+json',
        size: config.length,
        digest: sha256(config),
      },
      layers: [
        {
          mediaType: 'application/vnd.docker.image.rootfs.diff.tar.gzip',
          size: layer.length,
          digest: sha256(layer),
        },
      ],
    }),
  );
  const blobs = new Map([
    [sha256(config), config],
    [sha256(layer), layer],
  ]);
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '';
    const send = (status: number, body: Buffer, type: string, extra: Record<string, string> = {}): void => {
      res.writeHead(status, {
        'Docker-Distribution-API-Version': 'registry/2.0',
        'Content-Type': type,
        'Content-Length': String(body.length),
        ...extra,
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (url === '/v2/') return send(200, Buffer.from('{}'), 'application/json');
    if (
      url === `/v2/${repository}/manifests/${tag}` ||
      url === `/v2/${repository}/manifests/${sha256(manifest)}`
    )
      return send(200, manifest, 'application/vnd.docker.distribution.manifest.v2+json', {
        'Docker-Content-Digest': sha256(manifest),
      });
    const blob = url.startsWith(`/v2/${repository}/blobs/`)
      ? blobs.get(url.split('/').pop() ?? '')
      : undefined;
    if (blob)
      return send(200, blob, 'application/octet-stream', { 'Docker-Content-Digest': url.split('/').pop()! });
    send(
      404,
      Buffer.from(JSON.stringify({ errors: [{ code: 'NAME_UNKNOWN', message: 'not here' }] })),
      'application/json',
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    layerBytes: layer.length,
    close: () => server.close(),
  };
}
