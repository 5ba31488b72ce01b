import { WS_INBOUND } from '@talon/shared';
import { WS_LIMITS, wsEventRate, type WsRate } from '@talon/shared/wings/ws-limits';

/**
 * Websocket limits (protocol §9.2b, CVE-2025-69199: without them one browser tab could open any
 * number of sockets and flood the daemon with messages):
 * - at most 30 open sockets per server, all users together: the next upgrade is refused with HTTP 400
 *   "Too many open websocket connections." (ws/upgrade.ts, counted by ws/open-sockets.ts);
 * - inbound frames of at most 4096 bytes: a larger one closes the socket with 1009 "Message Too
 *   Big" (the `ws` library's own answer to `maxPayload`);
 * - per socket, a bucket of 10 messages refilled one per 200 ms for every message (garbage included),
 *   then a bucket per event: `auth` and `send logs` 2 per 5 s, `send command` 10 per second, any
 *   other event 4 per second (events we do not know share one bucket, so made-up names cannot
 *   create buckets without end).
 * A message over a limit is not acted on; the daemon answers `throttled` with the event's name, or
 * `global` when the socket's own bucket was empty. The numbers live in @talon/shared (wings/ws-limits.ts),
 * which the web app paces itself by.
 */

/** The bucket shared by events we do not know. */
const UNKNOWN = '\0unknown';

/** A token bucket refilled continuously from the clock, read only when a message arrives. */
class Bucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly rate: WsRate,
    now: number,
  ) {
    this.tokens = rate.burst;
    this.last = now;
  }

  take(now: number): boolean {
    const refilled = ((now - this.last) * this.rate.burst) / this.rate.perMs;
    this.tokens = Math.min(this.rate.burst, this.tokens + Math.max(0, refilled));
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** One socket's message limits. `now` is the clock (tests pass their own). */
export class MessageLimiter {
  private readonly global: Bucket;
  private readonly events = new Map<string, Bucket>();

  constructor(private readonly now: () => number = Date.now) {
    this.global = new Bucket(WS_LIMITS.global, now());
  }

  /** Every frame, before it is read: false (→ `throttled global`) when the socket is over its rate. */
  frame(): boolean {
    return this.global.take(this.now());
  }

  /** A parsed event: false (→ `throttled <event>`) when that event is over its rate. */
  event(name: string): boolean {
    const known = (Object.values(WS_INBOUND) as string[]).includes(name);
    const key = known ? name : UNKNOWN;
    let bucket = this.events.get(key);
    if (!bucket) {
      bucket = new Bucket(wsEventRate(key), this.now());
      this.events.set(key, bucket);
    }
    return bucket.take(this.now());
  }
}
