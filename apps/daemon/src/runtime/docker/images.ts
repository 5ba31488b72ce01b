import type Dockerode from 'dockerode';
import { engineMessage } from '../docker-connection.ts';

/** Credentials for one registry, from the node's `docker.registries`. */
export interface RegistryCredentials {
  username: string;
  password: string;
}

export interface EnsureImageOptions {
  /** `docker.registries`: registry host (or image prefix) → credentials. */
  registries: Record<string, RegistryCredentials>;
  /** Progress in words, for the console (`daemon message`): a few lines, at most one per second while bytes flow. */
  onProgress: (line: string) => void;
  signal?: AbortSignal;
}

/** The image is neither on this node nor pullable: the install or start cannot go on. */
export class ImageUnavailableError extends Error {
  constructor(
    readonly image: string,
    reason: string,
  ) {
    super(`The image ${image} is not on this node and could not be pulled: ${reason}`);
    this.name = 'ImageUnavailableError';
  }
}

/** Hosts Docker Hub answers on, for images named without a registry (`debian:12`, `library/x`). */
const DOCKER_HUB = ['docker.io', 'index.docker.io', 'registry-1.docker.io'];

/**
 * The registry host of an image reference, as Docker reads it: the first path component when it
 * looks like a host (has a dot or a port, or is `localhost`), else Docker Hub.
 */
export function registryHost(image: string): string {
  const slash = image.indexOf('/');
  if (slash < 0) return 'docker.io';
  const first = image.slice(0, slash);
  return first.includes('.') || first.includes(':') || first === 'localhost' ? first : 'docker.io';
}

/**
 * The configured credentials for `image`: those of its registry host (Docker Hub under any of its
 * names), else those of the longest configured prefix of the image (`ghcr.io/my-org`) ending at a
 * path component (Wings matches any string prefix, which would hand `ghcr.io`'s password to
 * `ghcr.io.evil.example`).
 */
export function credentialsFor(
  image: string,
  registries: Record<string, RegistryCredentials>,
): { serveraddress: string; credentials: RegistryCredentials } | null {
  const host = registryHost(image);
  const hostNames = host === 'docker.io' ? DOCKER_HUB : [host];
  for (const name of hostNames) {
    const found = registries[name];
    if (found) return { serveraddress: name, credentials: found };
  }
  // Only whole path components: `ghcr.io` must not match `ghcr.io.evil.example/…`.
  const prefix = Object.keys(registries)
    .filter((key) => image === key || (/^[/:@]/u.test(image.slice(key.length)) && image.startsWith(key)))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? { serveraddress: host, credentials: registries[prefix]! } : null;
}

/** One message of Docker's pull stream (`POST /images/create`). */
export interface PullEvent {
  status?: string;
  id?: string;
  progressDetail?: { current?: number; total?: number };
  error?: string;
  errorDetail?: { message?: string };
}

const MIB = 1024 * 1024;
const LINE_EVERY_MS = 1000;

function mib(bytes: number): string {
  return `${(bytes / MIB).toFixed(1)} MiB`;
}

/**
 * Folds Docker's per-layer pull events into one line with the bytes downloaded of all layers
 * (`Pulling ghcr.io/x/y:tag: 12.3 MiB of 80.0 MiB`), at most one line per second: a console
 * wants to see that a long pull is moving, not hundreds of layer updates.
 */
export class PullProgress {
  private readonly layers = new Map<string, { current: number; total: number }>();
  private lastLineAt: number | null = null;
  private upToDate = false;

  constructor(
    private readonly image: string,
    private readonly say: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one event; throws the pull's error when the stream reports one. */
  take(event: PullEvent): void {
    if (event.error || event.errorDetail) throw new Error(event.errorDetail?.message ?? event.error);
    const status = event.status ?? '';
    if (status.startsWith('Status: Image is up to date')) this.upToDate = true;
    if (!event.id) return;
    const layer = this.layers.get(event.id);
    if (status === 'Downloading' && event.progressDetail?.total) {
      this.layers.set(event.id, {
        current: event.progressDetail.current ?? 0,
        total: event.progressDetail.total,
      });
      this.maybeSay();
    } else if ((status === 'Download complete' || status === 'Pull complete') && layer) {
      layer.current = layer.total;
      this.maybeSay();
    }
  }

  /** The bytes downloaded so far and the size of the layers known so far. */
  bytes(): { current: number; total: number } {
    let current = 0;
    let total = 0;
    for (const layer of this.layers.values()) {
      current += layer.current;
      total += layer.total;
    }
    return { current, total };
  }

  /** The closing line, once the stream ended without an error. */
  finish(): void {
    const { total } = this.bytes();
    if (total > 0) this.say(`Pulled ${this.image} (${mib(total)})`);
    else this.say(this.upToDate ? `${this.image} is up to date` : `Pulled ${this.image}`);
  }

  private maybeSay(): void {
    const at = this.now();
    if (this.lastLineAt !== null && at - this.lastLineAt < LINE_EVERY_MS) return;
    this.lastLineAt = at;
    const { current, total } = this.bytes();
    this.say(`Pulling ${this.image}: ${mib(current)} of ${mib(total)}`);
  }
}

/** Docker's pull stream, one JSON object per line (possibly split across chunks). */
export async function followPull(stream: NodeJS.ReadableStream, progress: PullProgress): Promise<void> {
  let rest = '';
  for await (const chunk of stream as AsyncIterable<Buffer | string>) {
    rest += chunk.toString();
    const lines = rest.split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) progress.take(JSON.parse(line) as PullEvent);
  }
  if (rest.trim()) progress.take(JSON.parse(rest) as PullEvent);
}

async function existsLocally(docker: Dockerode, image: string): Promise<boolean> {
  try {
    await docker.getImage(image).inspect();
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes `image` available on the engine: pulls it (with the registry's credentials when the node
 * has some), reporting progress; when the pull fails but the image is already here, goes on with
 * the local copy and says so; otherwise throws ImageUnavailableError naming the image. Credentials
 * travel only in the engine's X-Registry-Auth header, never in a progress line or an error.
 */
export async function ensureImage(docker: Dockerode, image: string, opts: EnsureImageOptions): Promise<void> {
  const { onProgress, signal } = opts;
  const auth = credentialsFor(image, opts.registries);
  const progress = new PullProgress(image, onProgress);
  onProgress(`Pulling ${image}${auth ? ` with the credentials configured for ${auth.serveraddress}` : ''}`);
  try {
    signal?.throwIfAborted();
    const stream = await docker.pull(image, {
      abortSignal: signal,
      ...(auth
        ? {
            authconfig: {
              username: auth.credentials.username,
              password: auth.credentials.password,
              serveraddress: auth.serveraddress,
            },
          }
        : {}),
    });
    await followPull(stream, progress);
    progress.finish();
    return;
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    const reason = scrub(engineMessage(err), auth?.credentials);
    if (await existsLocally(docker, image)) {
      onProgress(`Could not pull ${image} (${reason}); using the copy of ${image} already on this node`);
      return;
    }
    throw new ImageUnavailableError(image, reason);
  }
}

/** A registry's error text should never echo a password back, but make sure it does not reach a console. */
function scrub(text: string, credentials: RegistryCredentials | undefined): string {
  if (!credentials?.password) return text;
  return text.split(credentials.password).join('********');
}
