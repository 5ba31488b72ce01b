/**
 * The live connection to a server's daemon (spec 001 §4 "Live connection", Wings protocol §3).
 * Framework-free so the reconnection rules can be tested with fake timers.
 */

import { WS_INBOUND, WS_OUTBOUND } from '@talon/shared/wings/events';
import { OutboundPacer } from './outboundPacer.ts';

/** Close codes after which the connection is left closed: normal, going away, no status. */
export const FINAL_CLOSE_CODES: readonly number[] = [1000, 1001, 1005];
export const RETRY_DELAY_MS = 1_000;
export const WATCHDOG_START_MS = 5_000;
export const WATCHDOG_STEP_MS = 2_500;
export const WATCHDOG_MAX_MS = 20_000;

/** What the class needs of a WebSocket (the browser's, or a fake in tests). */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((this: unknown, ev: unknown) => unknown) | null;
  onclose: ((this: unknown, ev: { code: number }) => unknown) | null;
  onmessage: ((this: unknown, ev: { data: unknown }) => unknown) | null;
  onerror: ((this: unknown, ev: unknown) => unknown) | null;
  send(data: string): void;
  close(code?: number): void;
}

export type SocketFactory = (url: string) => SocketLike;

type Listener = (...args: string[]) => void;

/** Pseudo events emitted by the class itself, next to the daemon's events. */
export const SOCKET_OPEN = 'SOCKET_OPEN';
export const SOCKET_CLOSE = 'SOCKET_CLOSE';
export const SOCKET_ERROR = 'SOCKET_ERROR';

const OPEN = 1;
/** The `throttled` argument when the page itself dropped a message (too many waiting to be sent). */
export const LOCAL_THROTTLE = 'local';

export class ServerSocket {
  private socket: SocketLike | null = null;
  private token = '';
  private closedByUs = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private watchdogTimer: ReturnType<typeof setTimeout> | null = null;
  private backoff = WATCHDOG_START_MS;
  private readonly listeners = new Map<string, Set<Listener>>();
  /** Keeps what we send under the daemon's message limits; too much at once shows as `throttled`. */
  private readonly pacer = new OutboundPacer(
    (event, args) => {
      if (this.isOpen) this.socket!.send(JSON.stringify({ event, args }));
    },
    () => this.emit(WS_OUTBOUND.throttled, LOCAL_THROTTLE),
  );

  constructor(
    private readonly url: string,
    private readonly factory: SocketFactory = (u) => new WebSocket(u) as unknown as SocketLike,
    private readonly log: (message: string, detail?: unknown) => void = (m, d) => console.warn(m, d),
  ) {}

  /** Current watchdog delay; exposed for tests. */
  get watchdogDelay(): number {
    return this.backoff;
  }

  get isOpen(): boolean {
    return this.socket?.readyState === OPEN;
  }

  /** True once close() was called: the page is done with this connection. */
  get isClosed(): boolean {
    return this.closedByUs;
  }

  on(event: string, listener: Listener): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  private emit(event: string, ...args: string[]): void {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }

  connect(): this {
    this.closedByUs = false;
    this.open();
    return this;
  }

  /** Stores the token; re-authenticates at once on an open socket when it replaces an old one. */
  setToken(token: string, reauthenticate = false): this {
    this.token = token;
    if (reauthenticate) this.authenticate();
    return this;
  }

  /** Sent now, or soon in order when the daemon's limits say wait; dropped while not open. */
  send(event: string, payload?: string | string[]): void {
    if (!this.isOpen) return;
    const args = payload === undefined ? [] : Array.isArray(payload) ? payload : [payload];
    this.pacer.push(event, args);
  }

  /** Closes for good: no retry, no watchdog, listeners dropped. */
  close(): void {
    this.closedByUs = true;
    this.clearTimers();
    this.pacer.reset();
    const socket = this.socket;
    this.socket = null;
    if (socket) this.detach(socket).close(1000);
    this.listeners.clear();
  }

  private authenticate(): void {
    if (this.token) this.send(WS_INBOUND.auth, this.token);
  }

  private detach(socket: SocketLike): SocketLike {
    socket.onopen = socket.onclose = socket.onmessage = socket.onerror = null;
    return socket;
  }

  private clearTimers(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.watchdogTimer) clearTimeout(this.watchdogTimer);
    this.retryTimer = this.watchdogTimer = null;
  }

  private open(): void {
    const socket = this.factory(this.url);
    this.socket = socket;
    // Each connection has its own limits on the daemon; what waited for the last one is dropped.
    this.pacer.reset();
    // One watchdog at a time: the 1 s retries must not keep pushing it back, or it would never grow.
    if (!this.watchdogTimer) this.armWatchdog();
    socket.onopen = () => {
      this.backoff = WATCHDOG_START_MS;
      if (this.watchdogTimer) clearTimeout(this.watchdogTimer);
      this.watchdogTimer = null;
      this.emit(SOCKET_OPEN);
      this.authenticate();
    };
    socket.onmessage = (ev) => this.receive(ev.data);
    socket.onerror = () => this.emit(SOCKET_ERROR);
    socket.onclose = (ev) => {
      this.detach(socket);
      if (this.socket === socket) {
        this.socket = null;
        this.pacer.reset();
      }
      this.emit(SOCKET_CLOSE, String(ev.code));
      if (this.closedByUs || FINAL_CLOSE_CODES.includes(ev.code)) {
        if (this.watchdogTimer) clearTimeout(this.watchdogTimer);
        this.watchdogTimer = null;
        return;
      }
      if (this.retryTimer) clearTimeout(this.retryTimer);
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        if (!this.closedByUs && !this.socket) this.open();
      }, RETRY_DELAY_MS);
    };
  }

  /** While not open, the watchdog recreates the connection after a growing delay. */
  private armWatchdog(): void {
    if (this.watchdogTimer) clearTimeout(this.watchdogTimer);
    this.watchdogTimer = setTimeout(() => {
      this.watchdogTimer = null;
      if (this.closedByUs || this.isOpen) return;
      this.backoff = Math.min(this.backoff + WATCHDOG_STEP_MS, WATCHDOG_MAX_MS);
      if (this.retryTimer) clearTimeout(this.retryTimer);
      this.retryTimer = null;
      if (this.socket) this.detach(this.socket).close();
      this.socket = null;
      this.open();
    }, this.backoff);
  }

  private receive(data: unknown): void {
    let frame: { event?: unknown; args?: unknown };
    try {
      frame = JSON.parse(String(data)) as typeof frame;
    } catch (error) {
      // Spec §4: unparseable messages are only logged.
      this.log('Unparseable websocket message', error);
      return;
    }
    if (typeof frame?.event !== 'string') {
      this.log('Websocket message without an event', frame);
      return;
    }
    const args = Array.isArray(frame.args)
      ? frame.args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a)))
      : [];
    this.emit(frame.event, ...args);
  }
}
