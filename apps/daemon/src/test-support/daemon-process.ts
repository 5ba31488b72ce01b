import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { TOKEN, TOKEN_ID, writeDaemonFiles } from './harness.ts';
import { RemoteStandIn } from './remote-stand-in.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const MAIN = path.join(repoRoot, 'apps/daemon/src/main.ts');

export interface DaemonProcess {
  root: string;
  remote: RemoteStandIn;
  child: ChildProcess;
  url: string;
  /** pino JSON lines the daemon wrote so far. */
  logs(): { level: number; msg: string; [k: string]: unknown }[];
  api(method: string, p: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  dispose(): Promise<void>;
}

/**
 * Run `apps/daemon/src/main.ts` on `configFile` until it exits by itself (a start that must fail):
 * its exit code and everything it wrote to stdout and stderr.
 */
export async function runDaemonUntilExit(
  configFile: string,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--config', configFile], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  return { code, output };
}

/** Calls the daemon API at `url` with the test token: the status and the parsed JSON body (null when empty). */
export function daemonApi(url: string): DaemonProcess['api'] {
  return async (method, p, body) => {
    const res = await fetch(url + p, {
      method,
      headers: {
        Authorization: `Bearer ${TOKEN}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const t = await res.text();
    return { status: res.status, body: t ? JSON.parse(t) : null };
  };
}

/** Set keys of the written config file (deep merge of plain objects). */
function merge(into: Record<string, any>, from: Record<string, any>): void {
  for (const [k, v] of Object.entries(from)) {
    if (v && typeof v === 'object' && !Array.isArray(v) && into[k] && typeof into[k] === 'object')
      merge(into[k], v);
    else into[k] = v;
  }
}

/**
 * `apps/daemon/src/main.ts` as a real child process on its own directories, with the remote
 * stand-in as its panel. Resolves once it logged "daemon listening" (its URL is read from that line).
 */
export async function startDaemonProcess(
  config: Record<string, unknown> = {},
  opts: { ownProcessGroup?: boolean; exitWithStdin?: boolean } = {},
): Promise<DaemonProcess> {
  const remote = new RemoteStandIn(TOKEN_ID, TOKEN);
  const { root, configFile } = await writeDaemonFiles(await remote.start());
  const raw = JSON.parse(await readFile(configFile, 'utf8')) as Record<string, any>;
  merge(raw, { system: { sftp: { bind_port: 0 } } });
  merge(raw, config);
  await writeFile(configFile, JSON.stringify(raw, null, 2));

  const args = ['--import', 'tsx', MAIN, '--config', configFile];
  // As the panel runs its local daemon: stdin a pipe whose end means the panel is gone.
  if (opts.exitWithStdin) args.push('--exit-with-stdin');
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'debug', LOG_FORMAT: 'json' },
    stdio: [opts.exitWithStdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] as ['pipe', 'pipe', 'pipe'],
    // As a shell runs a foreground job: a group of its own, which a test can signal as a terminal would.
    detached: opts.ownProcessGroup ?? false,
  });
  let text = '';
  child.stdout.on('data', (c: Buffer) => (text += c.toString()));
  child.stderr.on('data', (c: Buffer) => (text += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const logs = (): ReturnType<DaemonProcess['logs']> =>
    text
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as ReturnType<DaemonProcess['logs']>[number]);

  const url = await new Promise<string>((resolve, reject) => {
    const onData = (): void => {
      const line = logs().find((l) => l.msg === 'daemon listening');
      if (line) {
        child.stdout.off('data', onData);
        resolve(line.url as string);
      }
    };
    child.stdout.on('data', onData);
    void exited.then(({ code }) =>
      reject(new Error(`daemon exited with ${code} before listening:\n${text}`)),
    );
  });

  return {
    root,
    remote,
    child,
    url,
    logs,
    exited,
    api: daemonApi(url),
    async dispose() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      await remote.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
