import { randomUUID } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import WebSocket from 'ws';
import { parseConfig, type DaemonConfig } from '../config/config.ts';
import { buildDaemon, type BuildOptions, type Daemon } from '../daemon.ts';
import { GAME_JS, INSTALL_SCRIPT } from './game.ts';
import { signToken } from './jwt-sign.ts';
import { RemoteStandIn, type FixtureServer } from './remote-stand-in.ts';

export const TOKEN_ID = 'abcdefghijklmnop';
export const TOKEN = 'x'.repeat(32) + 'y'.repeat(32);
export const PANEL_ORIGIN_PATH = '';

/** A fixture server configuration document as the panel would render it for the built-in Node egg. */
export function fixtureServer(
  uuid: string,
  over: { settings?: Record<string, unknown>; process?: Record<string, unknown>; script?: string } = {},
): FixtureServer {
  return {
    settings: {
      uuid,
      meta: { name: `test ${uuid.slice(0, 8)}`, description: '' },
      suspended: false,
      environment: { GAME_FILE: 'game.js', P_SERVER_UUID: uuid, P_SERVER_ALLOCATION_LIMIT: 0 },
      invocation: 'node {{GAME_FILE}}',
      skip_egg_scripts: false,
      build: {
        memory_limit: 256,
        swap: 0,
        io_weight: 500,
        cpu_limit: 0,
        threads: null,
        disk_space: 100,
        oom_disabled: false,
      },
      container: { image: 'ghcr.io/example/node:20' },
      allocations: {
        force_outgoing_ip: false,
        default: { ip: '127.0.0.1', port: 25565 },
        mappings: { '127.0.0.1': [25565] },
      },
      mounts: [],
      egg: { id: randomUUID(), file_denylist: [] },
      ...over.settings,
    },
    process_configuration: {
      startup: { done: ['Done ('], user_interaction: [], strip_ansi: false },
      stop: { type: 'command', value: 'stop' },
      configs: [],
      ...over.process,
    },
    install: {
      container_image: 'ghcr.io/example/installers:debian',
      entrypoint: 'bash',
      script: over.script ?? INSTALL_SCRIPT,
    },
  };
}

export interface Stack {
  root: string;
  configFile: string;
  config: DaemonConfig;
  remote: RemoteStandIn;
  daemon: Daemon;
  url: string;
  // Tests read arbitrary JSON bodies; the shapes are what the assertions check.
  api(
    method: string,
    p: string,
    body?: unknown,
    token?: string,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /** Boot a fresh daemon on the same config and directories (the old one must be closed). */
  restart(): Promise<void>;
  token(uuid: string, claims?: Record<string, unknown>): Promise<string>;
  ws(uuid: string, opts?: { origin?: string }): Promise<WsClient>;
  /** A socket authenticated with a full token, after starting the server and seeing `running`. */
  startedWs(uuid: string): Promise<WsClient>;
  /** Create + install a server from the fixture; resolves once the install was reported. */
  createInstalled(uuid?: string, over?: Parameters<typeof fixtureServer>[1]): Promise<string>;
  dispose(): Promise<void>;
}

export interface WsClient {
  socket: WebSocket;
  messages: { event: string; args?: string[] }[];
  send(event: string, ...args: string[]): void;
  waitFor(
    pred: (m: { event: string; args?: string[] }) => boolean,
    ms?: number,
    from?: number,
  ): Promise<{ event: string; args?: string[] }>;
  close(): void;
}

export async function waitUntil(
  pred: () => boolean | Promise<boolean>,
  ms = 10_000,
  what = 'condition',
): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await pred()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * A daemon's directories under /var/tmp (outside the /tmp the sandbox replaces, so hiding is really
 * exercised) and its configuration file, talking to the panel at `remoteUrl`.
 */
export async function writeDaemonFiles(
  remoteUrl: string,
  over: Record<string, unknown> = {},
): Promise<{ root: string; configFile: string; config: DaemonConfig }> {
  await mkdir('/var/tmp', { recursive: true });
  const root = await mkdtemp('/var/tmp/talon-daemon-test-');
  // World-readable on purpose: only the sandbox may keep servers out, not mode bits.
  await chmod(root, 0o755);
  const raw = {
    uuid: randomUUID(),
    token_id: TOKEN_ID,
    token: TOKEN,
    api: { host: '127.0.0.1', port: 0 },
    system: {
      root_directory: path.join(root, 'lib'),
      data: path.join(root, 'volumes'),
      log_directory: path.join(root, 'log'),
      tmp_directory: path.join(root, 'tmp'),
      backup_directory: path.join(root, 'backups'),
      disk_check_interval: 5,
      crash_detection: { timeout: 60 },
      // Disposing a stack stops its servers gracefully; a stuck one must not hold a test for 30 s.
      shutdown_timeout: 5,
    },
    remote: remoteUrl,
    remote_query: { timeout: 5 },
    allowed_origins: [],
    runtime: { stats_interval_ms: 250 },
    ...over,
  };
  const confDir = path.join(root, 'etc');
  await mkdir(confDir, { recursive: true });
  const configFile = path.join(confDir, 'daemon.json');
  await writeFile(configFile, JSON.stringify(raw, null, 2), { mode: 0o644 });
  const config = parseConfig(raw);
  for (const d of [config.system.root_directory, config.system.data, config.system.log_directory]) {
    await mkdir(d, { recursive: true });
    await chmod(d, 0o755);
  }
  return { root, configFile, config };
}

/**
 * A daemon in-process with its directories under /var/tmp (outside the /tmp the sandbox replaces,
 * so hiding is really exercised), the remote stand-in as its panel, and helpers.
 */
export async function startStack(
  opts: {
    config?: Record<string, unknown>;
    forceNoBwrap?: boolean;
    /** Build options of the daemon (e.g. shorter login deadlines for a test). */
    build?: Pick<BuildOptions, 'wsAuthDeadlineMs' | 'sftpLogin'>;
  } = {},
): Promise<Stack> {
  const remote = new RemoteStandIn(TOKEN_ID, TOKEN);
  const remoteUrl = await remote.start();
  const { root, configFile, config } = await writeDaemonFiles(remoteUrl, opts.config);
  const log = pino({ level: process.env.TALON_TEST_LOG ?? 'silent' });
  const boot = async (): Promise<{ daemon: Daemon; url: string }> => {
    const daemon = await buildDaemon(
      { config, file: configFile },
      { ...opts.build, log, bootRetryMs: 2000, forceNoBwrap: opts.forceNoBwrap },
    );
    return { daemon, url: await daemon.listen() };
  };
  let current = await boot();
  const sockets: WsClient[] = [];

  const stack: Stack = {
    root,
    configFile,
    config,
    remote,
    get daemon() {
      return current.daemon;
    },
    get url() {
      return current.url;
    },
    async api(method, p, body, token = TOKEN) {
      const res = await fetch(current.url + p, {
        method,
        headers: {
          Authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // plain text
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
    async restart() {
      current = await boot();
    },
    token(uuid, claims = {}) {
      const now = Math.floor(Date.now() / 1000);
      return signToken(TOKEN, {
        scope: 'websocket',
        iss: remoteUrl,
        aud: [current.url],
        jti: 'jti-' + uuid,
        iat: now,
        nbf: now - 300,
        exp: now + 600,
        server_uuid: uuid,
        permissions: ['*', 'admin.websocket.errors', 'admin.websocket.install'],
        user_uuid: randomUUID(),
        ...claims,
      });
    },
    async startedWs(uuid) {
      const ws = await this.ws(uuid);
      ws.send('auth', await this.token(uuid));
      await ws.waitFor((m) => m.event === 'auth success');
      ws.send('set state', 'start');
      await ws.waitFor((m) => m.event === 'status' && m.args?.[0] === 'running');
      return ws;
    },
    async ws(uuid, o = {}) {
      const socket = new WebSocket(`${current.url.replace('http', 'ws')}/api/servers/${uuid}/ws`, {
        headers: { Origin: o.origin ?? remoteUrl },
      });
      const messages: { event: string; args?: string[] }[] = [];
      socket.on('message', (d: Buffer) =>
        messages.push(JSON.parse(d.toString('utf8')) as { event: string; args?: string[] }),
      );
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
        socket.once('unexpected-response', (_req, res) =>
          reject(new Error(`upgrade refused: ${res.statusCode}`)),
        );
      });
      const client: WsClient = {
        socket,
        messages,
        send: (event, ...args) => socket.send(JSON.stringify({ event, args })),
        async waitFor(pred, ms = 10_000, from = 0) {
          let found: { event: string; args?: string[] } | undefined;
          await waitUntil(
            () => {
              found = messages.slice(from).find(pred);
              return found !== undefined;
            },
            ms,
            'websocket message',
          );
          return found!;
        },
        close: () => socket.terminate(),
      };
      sockets.push(client);
      return client;
    },
    async createInstalled(uuid = randomUUID(), over = {}) {
      remote.servers.set(uuid, fixtureServer(uuid, over));
      const res = await stack.api('POST', '/api/servers', { uuid, start_on_completion: false });
      if (res.status !== 202) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
      await waitUntil(() => remote.installReports.some((r) => r.uuid === uuid), 20_000, 'install report');
      return uuid;
    },
    async dispose() {
      for (const s of sockets) s.close();
      await current.daemon.close();
      await remote.close();
      await rm(root, { recursive: true, force: true });
    },
  };
  return stack;
}

export { GAME_JS };
