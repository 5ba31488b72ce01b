import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { useDockerEngine } from '../../test-support/use-docker-engine.ts';
import {
  credentialsFor,
  ensureImage,
  followPull,
  ImageUnavailableError,
  PullProgress,
  registryHost,
} from './images.ts';
import { PULLED_IMAGE, RECORDED_PULL } from './pull-stream.fixture.ts';
import { startTestRegistry } from './test-registry.ts';

describe('pull progress', () => {
  it('folds the layers of a recorded pull into byte lines, at most one a second, and a closing line', () => {
    const lines: string[] = [];
    let now = 0;
    const progress = new PullProgress(
      PULLED_IMAGE,
      (l) => lines.push(l),
      () => now,
    );
    for (const { at, event } of RECORDED_PULL) {
      now = at;
      progress.take(event);
    }
    progress.finish();
    expect(lines).toEqual([
      `Pulling ${PULLED_IMAGE}: 5.0 MiB of 30.0 MiB`,
      `Pulling ${PULLED_IMAGE}: 25.0 MiB of 30.0 MiB`,
      `Pulling ${PULLED_IMAGE}: 50.0 MiB of 80.0 MiB`,
      `Pulling ${PULLED_IMAGE}: 80.0 MiB of 80.0 MiB`,
      `Pulled ${PULLED_IMAGE} (80.0 MiB)`,
    ]);
  });

  it('reads JSON lines split anywhere across chunks, and stops at the error the stream reports', async () => {
    const text = RECORDED_PULL.map(({ event }) => JSON.stringify(event)).join('\r\n');
    const chunks = [];
    for (let i = 0; i < text.length; i += 7) chunks.push(Buffer.from(text.slice(i, i + 7)));
    const seen: string[] = [];
    const progress = new PullProgress(
      PULLED_IMAGE,
      (l) => seen.push(l),
      () => 0,
    );
    await followPull(Readable.from(chunks), progress);
    expect(progress.bytes()).toEqual({ current: 80 * 1024 * 1024, total: 80 * 1024 * 1024 });

    const failing = [
      JSON.stringify({ status: 'Pulling fs layer', id: 'x' }),
      JSON.stringify({
        errorDetail: { message: 'unauthorized: authentication required' },
        error: 'unauthorized',
      }),
    ].join('\n');
    await expect(followPull(Readable.from([failing]), progress)).rejects.toThrow(
      'unauthorized: authentication required',
    );
  });

  it('says an image that was already current is up to date', () => {
    const lines: string[] = [];
    const progress = new PullProgress('debian:12', (l) => lines.push(l));
    progress.take({ status: 'Pulling from library/debian', id: '12' });
    progress.take({ status: 'Digest: sha256:abc' });
    progress.take({ status: 'Status: Image is up to date for debian:12' });
    progress.finish();
    expect(lines).toEqual(['debian:12 is up to date']);
  });
});

describe('registry credentials', () => {
  const registries = {
    'ghcr.io': { username: 'gh', password: 'gh-pw' },
    'ghcr.io/private-org': { username: 'org', password: 'org-pw' },
    'docker.io': { username: 'hub', password: 'hub-pw' },
    'registry.lan:5000': { username: 'lan', password: 'lan-pw' },
  };

  it('reads the registry host of an image as Docker does', () => {
    expect(registryHost('ghcr.io/pterodactyl/yolks:java_21')).toBe('ghcr.io');
    expect(registryHost('registry.lan:5000/game:1')).toBe('registry.lan:5000');
    expect(registryHost('localhost/game')).toBe('localhost');
    expect(registryHost('debian:12')).toBe('docker.io');
    expect(registryHost('library/debian:12')).toBe('docker.io');
  });

  it('matches by the image registry host, Docker Hub under its names, else the longest prefix', () => {
    expect(credentialsFor('ghcr.io/pterodactyl/yolks:java_21', registries)).toEqual({
      serveraddress: 'ghcr.io',
      credentials: registries['ghcr.io'],
    });
    expect(credentialsFor('debian:12', registries)?.credentials.username).toBe('hub');
    expect(credentialsFor('registry.lan:5000/game:1', registries)?.credentials.username).toBe('lan');
    expect(credentialsFor('quay.io/x/y:1', registries)).toBeNull();
    // A host without its own entry: the longest configured prefix of the image.
    expect(
      credentialsFor('ghcr.io/private-org/game:1', {
        'ghcr.io/private-org': registries['ghcr.io/private-org'],
      }),
    ).toEqual({ serveraddress: 'ghcr.io', credentials: registries['ghcr.io/private-org'] });
    // `ghcr.io.evil.example` is another host: a prefix match must not hand it ghcr.io's password.
    expect(credentialsFor('ghcr.io.evil.example/x:1', { 'ghcr.io': registries['ghcr.io'] })).toBeNull();
  });
});

/** A registry on 127.0.0.1 that asks for basic auth and serves nothing: records who asked with what. */
async function refusingRegistry(): Promise<{ server: Server; host: string; authorizations: string[] }> {
  const authorizations: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    authorizations.push(req.headers.authorization ?? '');
    if (!req.headers.authorization) {
      res.writeHead(401, {
        'WWW-Authenticate': 'Basic realm="talon-test"',
        'Docker-Distribution-API-Version': 'registry/2.0',
        'Content-Type': 'application/json',
      });
      res.end(JSON.stringify({ errors: [{ code: 'UNAUTHORIZED', message: 'authentication required' }] }));
      return;
    }
    res.writeHead(404, {
      'Content-Type': 'application/json',
      'Docker-Distribution-API-Version': 'registry/2.0',
    });
    res.end(JSON.stringify({ errors: [{ code: 'MANIFEST_UNKNOWN', message: 'manifest unknown' }] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, host: `127.0.0.1:${(server.address() as AddressInfo).port}`, authorizations };
}

describe('ensureImage against a Docker engine', () => {
  const engine = useDockerEngine();

  it('pulls from a registry, with byte progress and a closing line, and the image is then here', async () => {
    const registry = await startTestRegistry('team/game', '2', 3);
    try {
      const image = `${registry.host}/team/game:2`;
      const lines: string[] = [];
      await ensureImage(engine.docker, image, { registries: {}, onProgress: (l) => lines.push(l) });
      const size = `${(registry.layerBytes / 1024 / 1024).toFixed(1)} MiB`;
      expect(lines[0]).toBe(`Pulling ${image}`);
      const bytes = lines.slice(1, -1);
      expect(bytes.length).toBeGreaterThan(0);
      for (const line of bytes)
        expect(line).toMatch(
          new RegExp(`^Pulling ${image.replace(/[.]/gu, '\\.')}: \\d+\\.\\d MiB of ${size}$`, 'u'),
        );
      expect(lines.at(-1)).toBe(`Pulled ${image} (${size})`);
      expect((await engine.docker.getImage(image).inspect()).RepoTags).toContain(image);
    } finally {
      registry.close();
    }
  }, 120_000);

  it('goes on with the local copy when the pull fails, and says so', async () => {
    const image = '127.0.0.1:9/talon-test/local-only:1';
    await engine.importBusybox(image);
    const lines: string[] = [];
    await ensureImage(engine.docker, image, { registries: {}, onProgress: (l) => lines.push(l) });
    expect(lines[0]).toBe(`Pulling ${image}`);
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^Could not pull ${image.replace(/[.]/g, '\\.')} \\(.+\\); using the copy of .+ already on this node$`,
      ),
    );
  }, 120_000);

  it('fails with ImageUnavailableError naming the image when it is neither here nor pullable', async () => {
    const image = '127.0.0.1:9/talon-test/nowhere:1';
    const lines: string[] = [];
    const failure = await ensureImage(engine.docker, image, {
      registries: {},
      onProgress: (l) => lines.push(l),
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(ImageUnavailableError);
    expect((failure as ImageUnavailableError).image).toBe(image);
    expect((failure as Error).message).toMatch(
      new RegExp(
        `^The image ${image.replace(/[.]/g, '\\.')} is not on this node and could not be pulled: .+`,
      ),
    );
    expect(await engine.docker.listImages({ filters: { reference: [image] } })).toEqual([]);
  }, 120_000);

  it("sends the configured registry's credentials to that registry only, and never shows the password", async () => {
    const secured = await refusingRegistry();
    const other = await refusingRegistry();
    try {
      const password = 'pw-never-in-a-console-7f3a';
      const registries = { [secured.host]: { username: 'operator', password } };
      const lines: string[] = [];
      const onProgress = (l: string): void => void lines.push(l);

      const failure = await ensureImage(engine.docker, `${secured.host}/team/game:1`, {
        registries,
        onProgress,
      }).then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(failure).toBeInstanceOf(ImageUnavailableError);
      const basic = `Basic ${Buffer.from(`operator:${password}`).toString('base64')}`;
      expect(secured.authorizations).toContain(basic);
      expect(lines[0]).toBe(
        `Pulling ${secured.host}/team/game:1 with the credentials configured for ${secured.host}`,
      );

      await ensureImage(engine.docker, `${other.host}/team/game:1`, { registries, onProgress }).catch(
        () => null,
      );
      expect(other.authorizations.length).toBeGreaterThan(0);
      expect(other.authorizations.filter((a) => a !== '')).toEqual([]);

      expect([...lines, failure!.message].join('\n')).not.toContain(password);
    } finally {
      secured.server.close();
      other.server.close();
    }
  }, 120_000);

  it('stops a pull when its signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('server deleted'));
    await expect(
      ensureImage(engine.docker, '127.0.0.1:9/talon-test/aborted:1', {
        registries: {},
        onProgress: () => undefined,
        signal: controller.signal,
      }),
    ).rejects.toThrow('server deleted');
  });
});
