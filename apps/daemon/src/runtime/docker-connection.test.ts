import { spawn } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAEMON_EXIT_DOCKER_UNUSABLE } from '@talon/shared';
import { runDaemonUntilExit, startDaemonProcess } from '../test-support/daemon-process.ts';
import { useDockerEngine } from '../test-support/use-docker-engine.ts';
import { TOKEN, TOKEN_ID, writeDaemonFiles } from '../test-support/harness.ts';
import { RemoteStandIn } from '../test-support/remote-stand-in.ts';
import { connectDocker, dockerEndpoint, whyDockerUnusable } from './docker-connection.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'talon-docker-conn-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('docker endpoint', () => {
  it('takes docker.host, else DOCKER_HOST, else the default socket', () => {
    expect(dockerEndpoint('', {})).toMatchObject({
      address: 'unix:///var/run/docker.sock',
      socketPath: '/var/run/docker.sock',
    });
    expect(dockerEndpoint('', { DOCKER_HOST: 'unix:///run/podman/podman.sock' }).socketPath).toBe(
      '/run/podman/podman.sock',
    );
    expect(dockerEndpoint('tcp://10.0.0.2:2375', { DOCKER_HOST: 'unix:///x.sock' })).toMatchObject({
      socketPath: null,
      options: { host: '10.0.0.2', port: 2375, protocol: 'http' },
    });
    expect(dockerEndpoint('https://docker.lan', {}).options).toEqual({
      host: 'docker.lan',
      port: 2376,
      protocol: 'https',
    });
  });
});

describe('why Docker cannot be used', () => {
  it('says the socket is missing and what to do', async () => {
    const endpoint = dockerEndpoint(`unix://${dir}/missing.sock`);
    expect(await whyDockerUnusable(connectDocker(endpoint), endpoint)).toBe(
      `the Docker socket ${dir}/missing.sock does not exist: install Docker (apt-get install docker.io) and start it, ` +
        'or set docker.host in the daemon configuration to where the engine listens',
    );
  });

  it('says the engine is not running when its socket is left behind', async () => {
    // A socket file nobody listens on, as a dockerd that was killed leaves it: a child listens
    // on it and dies without closing it.
    const socket = path.join(dir, 'stale.sock');
    const child = spawn(process.execPath, [
      '-e',
      `require('net').createServer().listen(${JSON.stringify(socket)}, () => process.kill(process.pid, 'SIGKILL'))`,
    ]);
    await new Promise((r) => child.once('exit', r));
    const endpoint = dockerEndpoint(`unix://${socket}`);
    expect(await whyDockerUnusable(connectDocker(endpoint), endpoint)).toBe(
      `the Docker socket ${socket} refuses connections, so the Docker engine is not running: start it (systemctl start docker)`,
    );
  });

  it('says permission is denied when the daemon may not use the socket, and what to do', async () => {
    // The socket is root's and not writable; the check runs in a child without the capability that
    // lets root ignore file modes, as a daemon outside the docker group meets the engine's socket.
    const socket = path.join(dir, 'locked.sock');
    const server = createNetServer();
    await new Promise<void>((r) => server.listen(socket, r));
    try {
      await chmod(socket, 0o500);
      const check = [
        "const { dockerEndpoint, connectDocker, whyDockerUnusable } = await import('./apps/daemon/src/runtime/docker-connection.ts');",
        'const endpoint = dockerEndpoint(`unix://${process.env.SOCKET}`);',
        'console.log(await whyDockerUnusable(connectDocker(endpoint), endpoint));',
      ].join('\n');
      const child = spawn(
        'setpriv',
        ['--bounding-set=-dac_override,-dac_read_search', process.execPath, '--import', 'tsx', '-e', check],
        { cwd: repoRoot, env: { ...process.env, SOCKET: socket }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      await new Promise((r) => child.once('exit', r));
      expect(output.trim()).toBe(
        `permission denied on the Docker socket ${socket}: run the daemon as root or add its user to the "docker" group ` +
          '(usermod -aG docker <user>, then log in again)',
      );
    } finally {
      server.close();
    }
  }, 60_000);

  describe('with a Docker engine', () => {
    const engine = useDockerEngine();

    it('has nothing to say when the engine answers', async () => {
      const endpoint = dockerEndpoint(engine.host);
      expect(await whyDockerUnusable(connectDocker(endpoint), endpoint)).toBeNull();
    });

    it('a daemon with runtime.driver docker says at start which engine and network it uses', async () => {
      const daemon = await startDaemonProcess({
        runtime: { driver: 'docker' },
        docker: { host: engine.host, network: { network_mode: 'host' } },
      });
      try {
        expect(daemon.logs().find((l) => l.runtime === 'docker')).toMatchObject({
          engine: engine.host,
          network: 'host',
          msg: `runtime: servers run in Docker containers (engine ${engine.host}, network host)`,
        });
        // …and tells the panel, for the admin node page.
        const system = await daemon.api('GET', '/api/system?v=2');
        // Wings' docker block, from the engine itself.
        const engineVersion = (await engine.docker.version()).Version;
        expect(system.body.docker).toMatchObject({
          version: engineVersion,
          containers: { total: expect.any(Number), running: expect.any(Number) },
          storage: { driver: expect.stringMatching(/^(overlay2|vfs)$/u) },
        });
        expect(system.body.runtime).toMatchObject({
          driver: 'docker',
          confinement: 'container',
          network: 'host',
        });
      } finally {
        await daemon.dispose();
      }
    }, 120_000);
  });
});

describe('the daemon with an engine that answers its ping but fails', () => {
  it('answers /api/system?v=2 with 500 and the engine’s words, as Wings answers 500', async () => {
    // A stand-in engine on a unix socket: `/_ping` works (so the daemon starts), the rest fails.
    const socket = path.join(dir, 'broken-engine.sock');
    const engine = createHttpServer((req, res) => {
      if (req.url?.endsWith('/_ping')) return void res.end('OK');
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ message: 'storage driver overlay2 broke' }));
    });
    await new Promise<void>((r) => engine.listen(socket, r));
    const daemon = await startDaemonProcess({
      runtime: { driver: 'docker' },
      docker: { host: `unix://${socket}` },
    });
    try {
      const system = await daemon.api('GET', '/api/system?v=2');
      expect(system.status).toBe(500);
      expect(system.body).toEqual({
        error: 'The Docker engine cannot be used: storage driver overlay2 broke',
      });
      // The plain answer needs no engine.
      expect((await daemon.api('GET', '/api/system')).body.runtime).toMatchObject({ driver: 'docker' });
    } finally {
      await daemon.dispose();
      engine.close();
    }
  }, 120_000);
});

describe('the daemon at start', () => {
  it('says it runs servers as processes by default', async () => {
    const daemon = await startDaemonProcess();
    try {
      expect(daemon.logs().find((l) => l.runtime === 'process')?.msg).toBe(
        'runtime: servers run as processes on this host (bubblewrap, cgroups)',
      );
    } finally {
      await daemon.dispose();
    }
  }, 120_000);

  it('exits with its own status and the reason when docker is asked for but its socket is missing', async () => {
    const remote = new RemoteStandIn(TOKEN_ID, TOKEN);
    const socket = path.join(dir, 'no-engine.sock');
    const { root, configFile } = await writeDaemonFiles(await remote.start(), {
      runtime: { driver: 'docker' },
      docker: { host: `unix://${socket}` },
    });
    try {
      const { code, output } = await runDaemonUntilExit(configFile);
      expect(code, output).toBe(DAEMON_EXIT_DOCKER_UNUSABLE);
      expect(output).toContain(
        `runtime.driver is docker, but the Docker socket ${socket} does not exist: install Docker`,
      );
      // Before the boot: the panel's record of the servers' states is left alone.
      expect(remote.resets).toBe(0);
    } finally {
      await remote.close();
      await rm(root, { recursive: true, force: true });
    }
  }, 120_000);
});
