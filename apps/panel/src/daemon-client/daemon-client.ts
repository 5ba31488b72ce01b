import type { Node } from '../db/types.ts';
import { HttpError } from '../http/errors.ts';
import { decrypt } from '../lib/crypto.ts';

/** What the daemon reports for `GET /api/servers/:server`. */
export interface DaemonServerState {
  state?: string;
  is_suspended?: boolean;
  utilization?: {
    memory_bytes?: number;
    memory_limit_bytes?: number;
    cpu_absolute?: number;
    network?: { rx_bytes?: number; tx_bytes?: number };
    uptime?: number;
    disk_bytes?: number;
  };
}

export type PowerAction = 'start' | 'stop' | 'restart' | 'kill';

const TIMEOUT_MS = 15_000;

/** The base URL the panel and browsers use for a node. */
export function nodeUrl(node: Node): string {
  return `${node.scheme}://${node.fqdn}:${node.daemon_listen}`;
}

/**
 * The only code that calls daemons (Wings protocol §2). Every call has a timeout; failures become
 * `DaemonConnectionException` errors that name the node, so a user is never left waiting on a
 * machine that is down.
 */
export class DaemonClient {
  constructor(private readonly appKey: Buffer) {}

  token(node: Node): string {
    return decrypt(this.appKey, node.daemon_token);
  }

  private async call(node: Node, method: string, path: string, body?: unknown, timeoutMs = TIMEOUT_MS) {
    let res: Response;
    try {
      res = await fetch(`${nodeUrl(node)}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.token(node)}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      throw new HttpError(
        504,
        'DaemonConnectionException',
        `Could not establish a connection to the machine running this server (node "${node.name}"). Please try again.`,
      );
    }
    if (res.ok) return res;
    const requestId = res.headers.get('x-request-id') ?? 'none';
    let message = '';
    try {
      message = ((await res.json()) as { error?: string }).error ?? '';
    } catch {
      message = '';
    }
    if (res.status >= 500) {
      throw new HttpError(
        res.status,
        'DaemonConnectionException',
        `There was an error while communicating with the machine running this server (node "${node.name}"). This error has been logged, please try again. (code: ${res.status}) (request_id: ${requestId})`,
      );
    }
    throw new HttpError(
      res.status,
      'DaemonConnectionException',
      `An error occurred on the remote host: ${message || res.statusText}. (request id: ${requestId})`,
    );
  }

  async system(node: Node): Promise<Record<string, unknown>> {
    return (await (await this.call(node, 'GET', '/api/system')).json()) as Record<string, unknown>;
  }

  async createServer(node: Node, uuid: string, startOnCompletion: boolean): Promise<void> {
    await this.call(node, 'POST', '/api/servers', { uuid, start_on_completion: startOnCompletion });
  }

  async server(node: Node, uuid: string): Promise<DaemonServerState> {
    return (await (await this.call(node, 'GET', `/api/servers/${uuid}`)).json()) as DaemonServerState;
  }

  async deleteServer(node: Node, uuid: string): Promise<void> {
    await this.call(node, 'DELETE', `/api/servers/${uuid}`);
  }

  async power(node: Node, uuid: string, action: PowerAction): Promise<void> {
    await this.call(node, 'POST', `/api/servers/${uuid}/power`, { action });
  }

  async commands(node: Node, uuid: string, commands: string[]): Promise<void> {
    await this.call(node, 'POST', `/api/servers/${uuid}/commands`, { commands });
  }

  async reinstall(node: Node, uuid: string): Promise<void> {
    await this.call(node, 'POST', `/api/servers/${uuid}/reinstall`);
  }

  async sync(node: Node, uuid: string): Promise<void> {
    await this.call(node, 'POST', `/api/servers/${uuid}/sync`);
  }

  async denyTokens(node: Node, uuid: string, jtis: string[]): Promise<void> {
    await this.call(node, 'POST', `/api/servers/${uuid}/ws/deny`, { jtis });
  }
}
