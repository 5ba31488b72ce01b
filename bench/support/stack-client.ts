// The benchmark's side of `stack.ts`: start it, create servers through the application API, wait for
// their installs, stop everything.
import type { ChildProcess } from 'node:child_process';
import { ownHelpers } from './owner.ts';
import { startScript } from './processes.ts';
import type { DaemonInfo, StackInfo } from './stack.ts';

export interface CreatedServer {
  id: number;
  identifier: string;
  uuid: string;
}

export interface Stack {
  info: StackInfo;
  child: ChildProcess;
  /** an application API call with the admin's key; throws unless 2xx */
  app: <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;
  /** a server of the Generic Node.js App egg on the n-th allocation; `startup` replaces the command */
  createServer: (n: number, startup?: string) => Promise<CreatedServer>;
  waitInstalled: (servers: CreatedServer[], ms?: number) => Promise<void>;
  /** stops and starts the daemon process (with another console throttle if given) */
  restartDaemon: (opts?: { throttleLines?: number; daemon?: 'compiled' | 'tsx' }) => Promise<DaemonInfo>;
  stop: () => Promise<void>;
}

export async function startStack(
  opts: { allocations?: number; throttleLines?: number; daemon?: 'compiled' | 'tsx' } = {},
): Promise<Stack> {
  ownHelpers();
  const { info, child } = await startScript<StackInfo>('bench/support/stack.ts', [JSON.stringify(opts)]);
  const app = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(info.panelUrl + path, {
      method,
      headers: {
        authorization: `Bearer ${info.applicationKey}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  };
  return {
    info,
    child,
    app,
    createServer: async (n, startup = 'node {{NODE_ARGS}} {{MAIN_FILE}}') => {
      const created = await app<{ attributes: CreatedServer }>('POST', '/api/application/servers', {
        name: `bench ${n}`,
        user: info.ownerId,
        egg: info.eggs.generic,
        docker_image: 'talon/host-node:20',
        startup,
        environment: { MAIN_FILE: 'index.js', NODE_ARGS: '' },
        limits: { memory: 1024, swap: 0, disk: 0, io: 500, cpu: 0 },
        feature_limits: { databases: 0, allocations: 1, backups: 0 },
        allocation: { default: info.allocations[n] },
      });
      const { id, identifier, uuid } = created.attributes;
      return { id, identifier, uuid };
    },
    waitInstalled: async (servers, ms = 90_000) => {
      const deadline = Date.now() + ms;
      for (const s of servers) {
        for (;;) {
          const { attributes } = await app<{ attributes: { status: string | null } }>(
            'GET',
            `/api/application/servers/${s.id}`,
          );
          if (attributes.status === null) break;
          if (attributes.status !== 'installing') throw new Error(`server ${s.uuid}: ${attributes.status}`);
          if (Date.now() > deadline) throw new Error(`server ${s.uuid} still installing after ${ms} ms`);
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    },
    restartDaemon: async (next = {}) => {
      const res = await fetch(`${info.controlUrl}/daemon/restart`, {
        method: 'POST',
        body: JSON.stringify(next),
      });
      if (!res.ok) throw new Error(`daemon restart: ${res.status} ${await res.text()}`);
      info.daemon = (await res.json()) as DaemonInfo;
      return info.daemon;
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** Resident set size of a process in KiB (`VmRSS` of /proc/<pid>/status). */
export async function rssKiB(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const m = /^VmRSS:\s+(\d+) kB/m.exec(status);
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]);
}
