import type { Node } from '../db/types.ts';
import type { DaemonClient, DaemonServerState } from './daemon-client.ts';

/**
 * How long a daemon's answer about a server is reused. The dashboard polls every server's resources
 * (and several tabs or users may watch the same one); one second keeps its figures live while
 * the daemon answers at most about once a second per server, however many ask.
 */
export const SERVER_STATE_TTL_MS = 1000;

/** Past this many entries, a store first drops the expired ones (servers nobody watches any more). */
const SWEEP_AT = 1024;

interface Entry {
  state: DaemonServerState;
  at: number;
}

/**
 * A server's state as the daemon reports it (`GET /api/servers/:uuid`), shared: concurrent askers
 * for one server wait on one daemon call, and its answer serves them for {@link SERVER_STATE_TTL_MS}.
 * Failures are shared by the callers already waiting but never kept.
 */
export class ServerStateCache {
  private readonly fresh = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<DaemonServerState>>();

  constructor(
    private readonly client: DaemonClient,
    private readonly opts: { ttlMs?: number; now?: () => number } = {},
  ) {}

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  get(node: Node, uuid: string): Promise<DaemonServerState> {
    const key = `${node.id}/${uuid}`;
    const hit = this.fresh.get(key);
    if (hit && this.now() - hit.at < (this.opts.ttlMs ?? SERVER_STATE_TTL_MS)) {
      return Promise.resolve(hit.state);
    }
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const call = this.client
      .server(node, uuid)
      .then((state) => {
        this.store(key, state);
        return state;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, call);
    return call;
  }

  /** Drops what is known of a server, so that the next ask sees a change just made (a power action). */
  forget(node: Node, uuid: string): void {
    this.fresh.delete(`${node.id}/${uuid}`);
  }

  private store(key: string, state: DaemonServerState): void {
    if (this.fresh.size >= SWEEP_AT) {
      const ttl = this.opts.ttlMs ?? SERVER_STATE_TTL_MS;
      const now = this.now();
      for (const [k, e] of this.fresh) if (now - e.at >= ttl) this.fresh.delete(k);
    }
    this.fresh.set(key, { state, at: this.now() });
  }
}
