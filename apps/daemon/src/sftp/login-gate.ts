import type { Socket } from 'node:net';

/**
 * How long, and how many, SSH connections may wait to log in. A connection waits from TCP accept
 * until its SFTP subsystem is served (handshake, panel authentication and session opening
 * together); a client that says nothing would otherwise hold its socket forever.
 */
export interface SftpLoginLimits {
  /** From accept to a served SFTP session; the connection is ended after it. */
  deadlineMs: number;
  /** Connections waiting to log in from one source address. */
  pendingPerAddress: number;
  /** Connections waiting to log in on the node. */
  pendingTotal: number;
}

export const SFTP_LOGIN_LIMITS: SftpLoginLimits = {
  deadlineMs: 30_000,
  pendingPerAddress: 10,
  pendingTotal: 100,
};

/**
 * Admits accepted TCP connections before SSH sees them: refuses those over the caps, ends those
 * still waiting at the deadline, and lets go of those that reached a session. Connections are
 * named by their source address and port, which is all ssh2 tells about a client.
 */
export class LoginGate {
  private readonly limits: SftpLoginLimits;
  private readonly waiting = new Map<string, { address: string; socket: Socket; timer: NodeJS.Timeout }>();
  private readonly perAddress = new Map<string, number>();

  constructor(
    limits: Partial<SftpLoginLimits> = {},
    private readonly onExpired: (address: string) => void = () => undefined,
  ) {
    this.limits = { ...SFTP_LOGIN_LIMITS, ...limits };
  }

  /** Start the clock on `socket`, or false when it must be refused (over a cap, or already gone). */
  admit(socket: Socket): boolean {
    const address = socket.remoteAddress;
    const port = socket.remotePort;
    if (address === undefined || port === undefined) return false;
    const fromAddress = this.perAddress.get(address) ?? 0;
    if (fromAddress >= this.limits.pendingPerAddress) return false;
    if (this.waiting.size >= this.limits.pendingTotal) return false;
    const key = keyOf(address, port);
    const timer = setTimeout(() => {
      this.onExpired(address);
      socket.destroy();
    }, this.limits.deadlineMs);
    this.waiting.set(key, { address, socket, timer });
    this.perAddress.set(address, fromAddress + 1);
    socket.once('close', () => this.settle(address, port));
    return true;
  }

  /** The connection from `address`:`port` reached its session (or ended): no longer waiting. */
  settle(address: string, port: number): void {
    const key = keyOf(address, port);
    const entry = this.waiting.get(key);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.waiting.delete(key);
    const left = (this.perAddress.get(address) ?? 1) - 1;
    if (left > 0) this.perAddress.set(address, left);
    else this.perAddress.delete(address);
  }

  /** End every connection still waiting (the server is closing and must not wait for them). */
  close(): void {
    for (const { socket, timer } of this.waiting.values()) {
      clearTimeout(timer);
      socket.destroy();
    }
  }
}

function keyOf(address: string, port: number): string {
  return `${address}|${port}`;
}
