import type { NodeHealth } from '@talon/shared/admin/node-wire';
import { systemInfoSchema } from '@talon/shared';
import { systemInfoV2Schema, type NodeRuntime } from '@talon/shared/wings/system-v2';
import type { Node } from '../db/types.ts';
import { TIMED_OUT, type DaemonClient, type DaemonResponse } from './daemon-client.ts';

/** How long the panel waits for a node's daemon before calling it unreachable. */
export const HEALTH_TIMEOUT_MS = 3_000;

/** Socket error codes in words an operator can act on. */
const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'Connection refused',
  ECONNRESET: 'Connection reset by the node',
  EHOSTUNREACH: 'Host unreachable',
  ENETUNREACH: 'Network unreachable',
  ENOTFOUND: 'Host name not found',
  EAI_AGAIN: 'Host name could not be resolved (DNS lookup failed)',
  DEPTH_ZERO_SELF_SIGNED_CERT: "TLS error: the node's certificate is self-signed",
  CERT_HAS_EXPIRED: "TLS error: the node's certificate has expired",
  ERR_TLS_CERT_ALTNAME_INVALID: "TLS error: the node's certificate is for another host name",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "TLS error: the node's certificate could not be verified",
  EPROTO: 'TLS error: the node does not speak HTTPS on this port',
};

function networkError(err: unknown, timeoutMs: number): string {
  const e = err as NodeJS.ErrnoException;
  if (e.message === TIMED_OUT) return `Timed out after ${timeoutMs / 1000} s`;
  if (e.code && NETWORK_ERRORS[e.code]) return NETWORK_ERRORS[e.code]!;
  return `Connection failed: ${e.code ?? e.message}`;
}

type Facts = Omit<NodeHealth, 'reachable' | 'error' | 'checked_at'>;

const UNKNOWN: Facts = {
  version: null,
  architecture: null,
  cpu_count: null,
  kernel_version: null,
  os: null,
  memory: { total: null },
  runtime: null,
};

/**
 * How the node runs servers, from our daemon's `runtime` extension; a Wings node (its v2 answer
 * has a `docker` block) runs Docker.
 */
function runtimeOf(runtime: NodeRuntime | undefined, wingsDocker: boolean): NodeHealth['runtime'] {
  if (runtime) {
    return { driver: runtime.driver, confinement: runtime.confinement, network: runtime.network ?? null };
  }
  return wingsDocker ? { driver: 'docker', confinement: 'container', network: null } : null;
}

/**
 * The facts of a 2xx answer: Wings' `v=2` shape, or the plain one from daemons that ignore `v=2`
 * (older Wings), which has no total memory. Null when the body is neither.
 */
function factsOf(res: DaemonResponse): Facts | null {
  let body: unknown;
  try {
    body = JSON.parse(res.body.toString('utf8'));
  } catch {
    return null;
  }
  const v2 = systemInfoV2Schema.safeParse(body);
  if (v2.success) {
    const s = v2.data.system;
    return {
      version: v2.data.version,
      architecture: s.architecture,
      cpu_count: s.cpu_threads,
      kernel_version: s.kernel_version,
      os: s.os,
      memory: { total: s.memory_bytes },
      runtime: runtimeOf(v2.data.runtime, v2.data.docker !== undefined),
    };
  }
  const v1 = systemInfoSchema.safeParse(body);
  if (!v1.success) return null;
  const { version, architecture, cpu_count, kernel_version, os, runtime } = v1.data;
  return {
    version,
    architecture,
    cpu_count,
    kernel_version,
    os,
    memory: { total: null },
    runtime: runtimeOf(runtime, false),
  };
}

/** The daemon's own words (`{"error": …}`, Wings' shape) for a failed answer, if it gave any. */
function daemonError(res: DaemonResponse): string | null {
  try {
    const body = JSON.parse(res.body.toString('utf8')) as { error?: unknown };
    return typeof body.error === 'string' && body.error !== '' ? body.error.slice(0, 300) : null;
  } catch {
    return null;
  }
}

function statusError(res: DaemonResponse): string {
  if (res.status === 401 || res.status === 403) return "Unauthorized: the node's token does not match";
  const words = res.status >= 500 ? daemonError(res) : null;
  return `The node answered with HTTP status ${res.status}${words ? `: ${words}` : ''}`;
}

/**
 * Asks a node's daemon for its system information (Wings `GET /api/system?v=2`) within
 * `timeoutMs`. Never throws: an unreachable, silent or refusing daemon is `reachable: false` with
 * the reason in words, so a list of nodes shows every node whatever state each is in.
 */
export async function nodeHealth(
  daemon: DaemonClient,
  node: Node,
  timeoutMs = HEALTH_TIMEOUT_MS,
): Promise<NodeHealth> {
  const checked_at = new Date().toISOString();
  const down = (error: string): NodeHealth => ({ reachable: false, ...UNKNOWN, error, checked_at });
  let res: DaemonResponse;
  try {
    res = await daemon.systemProbe(node, timeoutMs);
  } catch (err) {
    return down(networkError(err, timeoutMs));
  }
  if (res.status < 200 || res.status >= 300) return down(statusError(res));
  const facts = factsOf(res);
  if (!facts) return down("The node answered, but not with a daemon's system information");
  return { reachable: true, ...facts, error: null, checked_at };
}
