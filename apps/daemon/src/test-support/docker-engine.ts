import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import tarStream from 'tar-stream';

const run = promisify(execFile);

/** A Docker Engine for tests: a private dockerd, or the one TEST_DOCKER_HOST names. */
export interface DockerEngine {
  /** `unix:///…/docker.sock`, for DOCKER_HOST or a daemon config. */
  host: string;
  socketPath: string;
  /** A client for the engine, for assertions (inspect, list). */
  docker: Docker;
  /** Make a busybox image (root fs with a uid 1000 `container` user) and tag it `tag`. */
  importBusybox(tag: string): Promise<void>;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 60_000;

/**
 * Start a private dockerd in a temp dir (its own data root, exec root, socket and pidfile; no
 * bridge, no iptables, so a test never touches the host's network), or reuse TEST_DOCKER_HOST.
 */
export async function startDockerEngine(): Promise<DockerEngine> {
  const reused = process.env.TEST_DOCKER_HOST;
  if (reused) {
    const socketPath = reused.replace(/^unix:\/\//, '');
    const docker = new Docker({ socketPath });
    await docker.ping();
    return {
      host: reused,
      socketPath,
      docker,
      importBusybox: (tag) => importBusybox(docker, tag),
      stop: async () => {},
    };
  }

  // Short path: the unix sockets under it (docker.sock, containerd's) must fit in 108 bytes.
  const dir = await mkdtemp(path.join(os.tmpdir(), 'talon-dockerd-'));
  const socketPath = path.join(dir, 'docker.sock');
  let engine: ChildProcess;
  try {
    engine = await startDockerd(dir, socketPath, 'overlay2');
  } catch (error) {
    // overlay2 needs an upper dir on a filesystem that supports it (not overlayfs itself, not some
    // tmpfs setups); vfs works anywhere, only slower and bigger, which busybox images do not mind.
    await cleanDir(dir, { keep: true });
    try {
      engine = await startDockerd(dir, socketPath, 'vfs');
    } catch (fallbackError) {
      await cleanDir(dir);
      throw new Error(
        `dockerd did not start with overlay2 (${String(error)}) nor vfs (${String(fallbackError)})`,
      );
    }
  }
  const docker = new Docker({ socketPath });
  let stopped = false;
  return {
    host: `unix://${socketPath}`,
    socketPath,
    docker,
    importBusybox: (tag) => importBusybox(docker, tag),
    async stop() {
      if (stopped) return;
      stopped = true;
      await stopProcess(engine);
      await cleanDir(dir);
    },
  };
}

async function startDockerd(dir: string, socketPath: string, storageDriver: string): Promise<ChildProcess> {
  const configFile = path.join(dir, 'daemon.json');
  // An empty config so the host's /etc/docker/daemon.json (if any) cannot change the test engine.
  await writeFile(configFile, '{}\n');
  const logPath = path.join(dir, `dockerd-${storageDriver}.log`);
  const log = openSync(logPath, 'a');
  const args = [
    `--data-root=${path.join(dir, 'data')}`,
    `--exec-root=${path.join(dir, 'exec')}`,
    `--pidfile=${path.join(dir, 'docker.pid')}`,
    `--config-file=${configFile}`,
    `-H`,
    `unix://${socketPath}`,
    '--bridge=none',
    '--iptables=false',
    '--ip6tables=false',
    '--ip-masq=false',
    '--userland-proxy=false',
    `--storage-driver=${storageDriver}`,
    '--exec-opt=native.cgroupdriver=cgroupfs',
    // Containers left at the end of a test go quickly: the engine is thrown away anyway.
    '--shutdown-timeout=1',
    '--log-level=warn',
  ];
  const child = spawn('dockerd', args, { stdio: ['ignore', log, log] });
  closeSync(log);
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve(`exited (${code ?? signal})`));
    child.once('error', (e) => resolve(`failed to run: ${e.message}`));
  });
  const docker = new Docker({ socketPath });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const outcome = await Promise.race([
      exited,
      docker.ping().then(
        () => 'ready',
        () => 'not yet',
      ),
    ]);
    if (outcome === 'ready') {
      // A storage driver that failed makes dockerd exit right after start; ask which one it runs.
      const info = (await docker.info()) as { Driver?: string };
      if (info.Driver !== storageDriver) {
        await stopProcess(child);
        throw new Error(`dockerd runs ${info.Driver} instead of ${storageDriver}`);
      }
      return child;
    }
    if (outcome !== 'not yet') {
      const text = await readFile(logPath, 'utf8').catch(() => '');
      throw new Error(`dockerd ${outcome}: ${text.trim().split('\n').slice(-5).join(' | ')}`);
    }
    if (Date.now() > deadline) {
      await stopProcess(child);
      throw new Error(`dockerd did not answer /_ping within ${READY_TIMEOUT_MS / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await gone;
  clearTimeout(timer);
}

/** Unmount whatever dockerd left mounted under `dir` (deepest first), then remove it. */
async function cleanDir(dir: string, options: { keep?: boolean } = {}): Promise<void> {
  const mounts = (await readFile('/proc/self/mountinfo', 'utf8'))
    .split('\n')
    .map((line) => line.split(' ')[4])
    .filter((point): point is string => !!point && (point === dir || point.startsWith(dir + '/')))
    .sort((a, b) => b.length - a.length);
  for (const point of mounts) await run('umount', ['-l', point]).catch(() => {});
  if (options.keep) {
    for (const sub of ['data', 'exec', 'docker.pid'])
      await rm(path.join(dir, sub), { recursive: true, force: true });
  } else {
    await rm(dir, { recursive: true, force: true });
  }
}

const imported = new WeakMap<Docker, Promise<string>>();

/** Import the busybox image into any engine with the Docker API (Podman's too), tagged `tag`. */
export async function importBusybox(docker: Docker, tag: string): Promise<void> {
  let image = imported.get(docker);
  if (!image) {
    image = importBusyboxOnce(docker);
    imported.set(docker, image);
  }
  const reference = await image;
  const [repo, version] = splitTag(tag);
  await docker.getImage(reference).tag({ repo, tag: version });
}

function splitTag(tag: string): [string, string] {
  const colon = tag.lastIndexOf(':');
  if (colon > tag.lastIndexOf('/')) return [tag.slice(0, colon), tag.slice(colon + 1)];
  return [tag, 'latest'];
}

async function importBusyboxOnce(docker: Docker): Promise<string> {
  const stream = await docker.importImage(Readable.from([await busyboxRootfsTar()]), {
    repo: 'talon-test/busybox',
    tag: 'imported',
  });
  const lines = await new Promise<Array<{ error?: string; status?: string; id?: string }>>(
    (resolve, reject) =>
      docker.modem.followProgress(stream, (error: Error | null, out: Array<{ error?: string }>) => {
        const failed = error ?? out.find((l) => l.error);
        if (failed) reject(failed instanceof Error ? failed : new Error(String(failed.error)));
        else resolve(out);
      }),
  );
  // Docker answers the new image's id as the last status; Podman names the image differently
  // (localhost/…) and answers its id too: the id works for both.
  for (const line of lines.reverse()) {
    const id = /sha256:[0-9a-f]{64}|^[0-9a-f]{64}$/u.exec(line.status ?? line.id ?? '')?.[0];
    if (id) return id;
  }
  throw new Error(`the engine did not say which image it imported: ${JSON.stringify(lines)}`);
}

/** A root filesystem tar: static busybox with every applet linked, a `container` user (uid 1000). */
async function busyboxRootfsTar(): Promise<Buffer> {
  const busybox = await readFile('/bin/busybox');
  const { stdout } = await run('/bin/busybox', ['--list']);
  const applets = stdout.split('\n').filter((name) => /^[\w.[-]+$/.test(name) && name !== 'busybox');
  const pack = tarStream.pack();
  const dirs: Array<[string, number, number]> = [
    ['bin', 0o755, 0],
    ['etc', 0o755, 0],
    ['home', 0o755, 0],
    ['home/container', 0o755, 1000],
    ['tmp', 0o1777, 0],
    ['mnt', 0o755, 0],
    ['proc', 0o755, 0],
    ['sys', 0o755, 0],
    ['dev', 0o755, 0],
  ];
  for (const [name, mode, uid] of dirs) pack.entry({ name, type: 'directory', mode, uid, gid: uid });
  pack.entry({ name: 'bin/busybox', mode: 0o755 }, busybox);
  for (const applet of applets) pack.entry({ name: `bin/${applet}`, type: 'symlink', linkname: 'busybox' });
  pack.entry(
    { name: 'etc/passwd', mode: 0o644 },
    'root:x:0:0:root:/root:/bin/sh\ncontainer:x:1000:1000:container:/home/container:/bin/sh\n',
  );
  pack.entry({ name: 'etc/group', mode: 0o644 }, 'root:x:0:\ncontainer:x:1000:\n');
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack as unknown as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
