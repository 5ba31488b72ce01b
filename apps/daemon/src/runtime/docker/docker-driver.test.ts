import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import type Dockerode from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDockerEngine, type DockerEngine } from '../../test-support/docker-engine.ts';
import {
  TOKEN,
  fixtureServer,
  startStack,
  waitUntil,
  type Stack,
  type WsClient,
} from '../../test-support/harness.ts';

const IMAGE = '127.0.0.1:9/talon-test/game:1';
const INSTALLER = '127.0.0.1:9/talon-test/installer:1';

/**
 * The egg's install script (run in `<uuid>_installer` from the install image): it waits for the
 * test's go-ahead file when asked to, so the test can look at the installer while it runs.
 */
const INSTALL = `
if [ -n "$WAIT_FOR_GO" ]; then while [ ! -f /mnt/server/go ]; do sleep 0.1; done; fi
echo "installing in $(hostname) as $(id -u)"
cat > /mnt/server/game.sh <<'GAME'
echo "Done (ready on $SERVER_PORT as $(id -u))"
while read -r line; do
  case "$line" in
    stop) echo "saving and stopping"; exit 0 ;;
    crash) echo "crashing"; exit 3 ;;
    eat) exec dd if=/dev/zero of=/dev/null bs=96M count=4 ;;
    cat*) cat "\${line#cat }" ;;
    # nc ends its connection at the end of its input: sleep keeps both open while stats are read.
    net*) sleep 60 | nc 127.0.0.1 "\${line#net }" > /dev/null & ;;
    *) echo "echo: $line" ;;
  esac
done
GAME
echo installed
`;

function dockerEgg(
  uuid: string,
  over: { image?: string; installImage?: string; env?: Record<string, string> } = {},
) {
  const server = fixtureServer(uuid, { script: INSTALL });
  server.settings.container = { image: over.image ?? IMAGE };
  server.settings.invocation = 'sh game.sh';
  const settings = server.settings as { build: object; environment: object };
  settings.build = { ...settings.build, memory_limit: 64, swap: 0 };
  settings.environment = { ...settings.environment, ...over.env };
  server.install = { ...server.install, container_image: over.installImage ?? INSTALLER, entrypoint: 'sh' };
  return server;
}

describe('docker runtime (real engine, host network, busybox images)', () => {
  let engine: DockerEngine;
  let docker: Dockerode;
  let stack: Stack;
  /** Every server uuid the tests made, for the clean-up. */
  const created: string[] = [];

  beforeAll(async () => {
    engine = await startDockerEngine();
    docker = engine.docker;
    await engine.importBusybox(IMAGE);
    await engine.importBusybox(INSTALLER);
    stack = await startStack({
      config: {
        runtime: { driver: 'docker', stats_interval_ms: 250 },
        docker: { host: engine.host, network: { network_mode: 'host' } },
      },
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.dispose();
    // Containers outlive the daemon by design: on a shared engine (TEST_DOCKER_HOST) they must go too.
    for (const uuid of created) {
      for (const name of [uuid, `${uuid}_installer`]) {
        await docker
          .getContainer(name)
          .remove({ force: true })
          .catch(() => {});
      }
    }
    await engine?.stop();
  }, 120_000);

  const inspect = (name: string) => docker.getContainer(name).inspect();
  const gone = async (name: string): Promise<boolean> =>
    inspect(name).then(
      () => false,
      (err: { statusCode?: number }) => err.statusCode === 404,
    );

  async function create(uuid: string, server = dockerEgg(uuid)): Promise<void> {
    created.push(uuid);
    stack.remote.servers.set(uuid, server);
    const res = await stack.api('POST', '/api/servers', { uuid, start_on_completion: false });
    expect(res.status).toBe(202);
  }

  async function installed(uuid = randomUUID(), server = dockerEgg(uuid)): Promise<string> {
    await create(uuid, server);
    await waitUntil(() => stack.remote.installReports.some((r) => r.uuid === uuid), 60_000, 'install report');
    return uuid;
  }

  async function openConsole(uuid: string): Promise<WsClient> {
    const ws = await stack.ws(uuid);
    ws.send('auth', await stack.token(uuid));
    await ws.waitFor((m) => m.event === 'auth success');
    return ws;
  }

  const line = (ws: WsClient, text: string, from = 0, ms = 30_000) =>
    ws.waitFor((m) => m.event === 'console output' && !!m.args?.[0]?.includes(text), ms, from);
  const status = (ws: WsClient, state: string, from = 0, ms = 30_000) =>
    ws.waitFor((m) => m.event === 'status' && m.args?.[0] === state, ms, from);

  async function started(uuid: string): Promise<WsClient> {
    const ws = await openConsole(uuid);
    const from = ws.messages.length;
    ws.send('set state', 'start');
    await status(ws, 'running', from, 60_000);
    return ws;
  }

  it('installs in <uuid>_installer from the install image, streams its output, then removes it', async () => {
    const uuid = randomUUID();
    await create(uuid, dockerEgg(uuid, { env: { WAIT_FOR_GO: '1' } }));
    await waitUntil(async () => !(await gone(`${uuid}_installer`)), 60_000, 'installer container');
    const installer = await inspect(`${uuid}_installer`);
    expect(installer.Config.Image).toBe(INSTALLER);
    expect(installer.HostConfig.Privileged).toBe(false);
    expect(installer.Config.Env).toContain('WAIT_FOR_GO=1');
    expect(installer.Mounts.map((m) => m.Destination).sort()).toEqual(['/mnt/install', '/mnt/server']);
    await writeFile(path.join(stack.config.system.data, uuid, 'go'), '');
    await waitUntil(() => stack.remote.installReports.some((r) => r.uuid === uuid), 60_000, 'install report');
    expect(stack.remote.installReports.find((r) => r.uuid === uuid)?.successful).toBe(true);
    expect(await gone(`${uuid}_installer`)).toBe(true);
    const logs = await stack.api('GET', `/api/servers/${uuid}/install-logs`);
    expect(JSON.stringify(logs.body)).toContain('installing in installer as 0');
    // The log names the image the script really ran in, not the process runtime's caveat.
    expect(JSON.stringify(logs.body)).toContain(`runtime: docker\\nimage: ${INSTALLER}\\n`);
  }, 120_000);

  it('starts the server container as the unprivileged user, round-trips the console, sends stats, stops by command', async () => {
    const uuid = await installed();
    const ws = await started(uuid);
    await line(ws, `Done (ready on 25565 as ${stack.config.runtime.uid})`);
    const c = await inspect(uuid);
    expect(c.Name).toBe(`/${uuid}`);
    expect(c.Config.Image).toBe(IMAGE);
    expect(c.Config.User).toBe(`${stack.config.runtime.uid}:${stack.config.runtime.gid}`);
    expect(c.HostConfig.NetworkMode).toBe('host');
    expect(c.HostConfig.Privileged).toBe(false);
    expect(c.HostConfig.CapDrop).toEqual(['ALL']);
    expect(c.HostConfig.SecurityOpt).toEqual(['no-new-privileges']);
    expect(c.HostConfig.PidsLimit).toBe(512);
    expect(Object.keys(c.HostConfig.Tmpfs ?? {})).toEqual(['/tmp']);
    expect(c.HostConfig.Memory).toBe(Math.round(64 * 1024 * 1024 * 1.15));
    expect(c.HostConfig.MemoryReservation).toBe(64 * 1024 * 1024);
    expect(c.Mounts.map((m) => [m.Source, m.Destination])).toEqual([
      [path.join(stack.config.system.data, uuid), '/home/container'],
    ]);
    // The daemon's own secrets and socket never reach the container.
    expect(c.Mounts.some((m) => m.Source.includes('docker.sock'))).toBe(false);

    const from = ws.messages.length;
    ws.send('send command', 'hello there');
    await line(ws, 'echo: hello there', from);

    const stats = await ws.waitFor(
      (m) => m.event === 'stats' && (JSON.parse(m.args![0]!) as { memory_bytes: number }).memory_bytes > 0,
      30_000,
      from,
    );
    expect(JSON.parse(stats.args![0]!)).toMatchObject({
      state: 'running',
      memory_limit_bytes: 64 * 1024 * 1024,
    });

    const stopFrom = ws.messages.length;
    ws.send('set state', 'stop');
    await line(ws, 'saving and stopping', stopFrom);
    await status(ws, 'offline', stopFrom);
    expect((await inspect(uuid)).State.ExitCode).toBe(0);
  }, 120_000);

  it("host network: the TCP bytes of the container's own connections are in its stats", async () => {
    const uuid = await installed();
    const ws = await started(uuid);
    // A peer on the host's loopback that sends 200 KB to whoever connects and keeps the connection open.
    const peer = createServer((socket) => socket.write(Buffer.alloc(200_000, 'x')));
    await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
    try {
      const from = ws.messages.length;
      ws.send('send command', `net ${(peer.address() as AddressInfo).port}`);
      await ws.waitFor(
        (m) =>
          m.event === 'stats' &&
          (JSON.parse(m.args![0]!) as { network: { rx_bytes: number } }).network.rx_bytes >= 200_000,
        30_000,
        from,
      );
    } finally {
      ws.send('set state', 'kill');
      await status(ws, 'offline', ws.messages.length - 1);
      peer.close();
    }
  }, 120_000);

  it('kill stops the container at once, and no crash restart follows', async () => {
    const uuid = await installed();
    const ws = await started(uuid);
    const from = ws.messages.length;
    ws.send('set state', 'kill');
    await status(ws, 'offline', from);
    expect((await inspect(uuid)).State.Running).toBe(false);
    // The exit's frames are all in once a stats request sent after it is answered.
    const acked = ws.messages.length;
    ws.send('send stats');
    await ws.waitFor((m) => m.event === 'stats', 10_000, acked);
    expect(ws.messages.slice(from).some((m) => m.args?.[0]?.includes('crashed state'))).toBe(false);
  }, 120_000);

  it('a crash is detected from the exit code and the server is started again', async () => {
    const uuid = await installed();
    const ws = await started(uuid);
    const from = ws.messages.length;
    ws.send('send command', 'crash');
    await line(ws, 'Detected server process in a crashed state', from);
    await line(ws, 'Exit code: 3', from);
    await status(ws, 'running', from + 1, 60_000);
    expect((await inspect(uuid)).State.Running).toBe(true);
    ws.send('set state', 'kill');
    await status(ws, 'offline', ws.messages.length - 1);
  }, 120_000);

  it('out of memory: offline with the reason in the console', async () => {
    const uuid = await installed();
    const ws = await started(uuid);
    const from = ws.messages.length;
    ws.send('send command', 'eat');
    await line(ws, 'needed more memory than its limit of 64 MiB', from);
    await line(ws, 'Out of memory: true', from);
    expect((await inspect(uuid)).State.OOMKilled).toBe(true);
  }, 120_000);

  it('a build change reaches the running container at once', async () => {
    const uuid = await installed();
    const ws = await started(uuid);
    const settings = stack.remote.servers.get(uuid)!.settings as { build: object };
    settings.build = { ...settings.build, memory_limit: 128, cpu_limit: 50 };
    expect((await stack.api('POST', `/api/servers/${uuid}/sync`)).status).toBe(204);
    const c = await inspect(uuid);
    expect(c.HostConfig.Memory).toBe(Math.round(128 * 1024 * 1024 * 1.15));
    expect(c.HostConfig.CpuQuota).toBe(50_000);
    expect(c.State.Running).toBe(true);
    ws.send('set state', 'kill');
  }, 120_000);

  it('files written through the daemon are the files the container sees', async () => {
    const uuid = await installed();
    const res = await fetch(`${stack.url}/api/servers/${uuid}/files/write?file=notes/hello.txt`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'text/plain' },
      body: 'written by the files API\n',
    });
    expect(res.status).toBe(204);
    const ws = await started(uuid);
    const from = ws.messages.length;
    ws.send('send command', 'cat notes/hello.txt');
    await line(ws, 'written by the files API', from);
    ws.send('set state', 'kill');
  }, 120_000);

  it('reinstall runs the installer again; deletion removes the server container', async () => {
    const uuid = await installed();
    const ws = await started(uuid);
    ws.send('set state', 'kill');
    await status(ws, 'offline', ws.messages.length - 1);
    expect((await stack.api('POST', `/api/servers/${uuid}/reinstall`)).status).toBe(202);
    await waitUntil(
      () => stack.remote.installReports.some((r) => r.uuid === uuid && r.reinstall && r.successful),
      60_000,
      'reinstall report',
    );
    expect(await gone(`${uuid}_installer`)).toBe(true);
    expect(await gone(uuid)).toBe(false);
    expect((await stack.api('DELETE', `/api/servers/${uuid}`)).status).toBe(204);
    await waitUntil(() => gone(uuid), 30_000, 'container removed');
  }, 120_000);

  it('a missing image fails the install with a message naming it, and the server is not left installing', async () => {
    const uuid = randomUUID();
    await create(uuid, dockerEgg(uuid, { installImage: '127.0.0.1:9/talon-test/not-here:7' }));
    const ws = await openConsole(uuid);
    await waitUntil(() => stack.remote.installReports.some((r) => r.uuid === uuid), 60_000, 'install report');
    expect(stack.remote.installReports.find((r) => r.uuid === uuid)?.successful).toBe(false);
    const server = (await stack.api('GET', `/api/servers/${uuid}`)).body as { is_installing?: boolean };
    expect(server.is_installing ?? false).toBe(false);
    await ws.waitFor(
      (m) =>
        (m.event === 'install output' || m.event === 'daemon message') &&
        !!m.args?.[0]?.includes('127.0.0.1:9/talon-test/not-here:7'),
    );
    expect(await gone(`${uuid}_installer`)).toBe(true);
  }, 120_000);

  it('a start with a missing image says which image, and the server is offline again', async () => {
    const uuid = await installed();
    const settings = stack.remote.servers.get(uuid)!.settings as { container: { image: string } };
    settings.container = { image: '127.0.0.1:9/talon-test/absent:2' };
    const ws = await openConsole(uuid);
    const from = ws.messages.length;
    ws.send('set state', 'start');
    await ws.waitFor(
      (m) => m.event === 'daemon message' && !!m.args?.[0]?.includes('127.0.0.1:9/talon-test/absent:2'),
      30_000,
      from,
    );
    await status(ws, 'offline', from);
    expect(await gone(uuid)).toBe(true);
  }, 120_000);

  it('a daemon restart leaves the container running and the new daemon re-attaches to it', async () => {
    const uuid = await installed();
    const ws = await started(uuid);
    await line(ws, 'Done (ready');
    const before = await inspect(uuid);
    ws.close();
    await stack.daemon.close();
    const during = await inspect(uuid);
    expect(during.State.Running).toBe(true);
    expect(during.State.StartedAt).toBe(before.State.StartedAt);

    await stack.restart();
    const again = await openConsole(uuid);
    expect((await stack.api('GET', `/api/servers/${uuid}`)).body.state).toBe('running');
    // The console's recent past comes back from the container's log.
    const logsFrom = again.messages.length;
    again.send('send logs');
    await line(again, 'Done (ready', logsFrom);
    const from = again.messages.length;
    again.send('send command', 'still here?');
    await line(again, 'echo: still here?', from);
    expect((await inspect(uuid)).State.StartedAt).toBe(before.State.StartedAt);
    const stopFrom = again.messages.length;
    again.send('set state', 'stop');
    await status(again, 'offline', stopFrom);
  }, 120_000);
});
