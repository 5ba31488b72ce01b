import { WS_INBOUND } from '@talon/shared/wings/events';
import { WS_LIMITS, wsEventRate, type WsRate } from '@talon/shared/wings/ws-limits';

/**
 * What the web app sends to the daemon stays under the daemon's message limits (protocol §9.2b),
 * so a user pressing Enter or a power button quickly is slowed down here, in order, instead of
 * having the daemon ignore them. The daemon counts per connection: every frame 10 per 2 s; then
 * `auth` and `send logs` 2 per 5 s, `send command` 10 per second, any other event 4 per second.
 *
 * Rules:
 * - at most `burst` frames in any `perMs` (+ a margin for frames that bunch up on the way): never
 *   more than the daemon's token buckets allow, whatever their phase;
 * - frames leave in the order they were given; a frame waits while the one before it waits;
 * - `send logs` and `send stats` waiting already are not queued twice; a waiting `auth` takes the
 *   newest token;
 * - at most MAX_QUEUED frames wait; more are dropped and reported (the user sees the notice);
 * - a new connection starts afresh (`reset`): what waited for the old one is not sent.
 * The numbers are the daemon's own (@talon/shared/wings/ws-limits).
 */

/** Frames sent apart may arrive closer together; this much is added to every window. */
const MARGIN_MS = 250;
export const MAX_QUEUED = 20;

const REPLACED_WHILE_WAITING = new Set<string>([WS_INBOUND.auth, WS_INBOUND.sendLogs, WS_INBOUND.sendStats]);
const GLOBAL_KEY = '\0global';

interface Frame {
  event: string;
  args: string[];
}

export class OutboundPacer {
  private queue: Frame[] = [];
  /** Send times, oldest first, per event and for all frames (GLOBAL_KEY). */
  private readonly sentAt = new Map<string, number[]>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly write: (event: string, args: string[]) => void,
    private readonly dropped: () => void,
    private readonly now: () => number = () => Date.now(),
  ) {}

  push(event: string, args: string[]): void {
    if (REPLACED_WHILE_WAITING.has(event)) {
      const waiting = this.queue.find((f) => f.event === event);
      if (waiting) {
        waiting.args = args;
        return;
      }
    }
    if (this.queue.length >= MAX_QUEUED) {
      this.dropped();
      return;
    }
    this.queue.push({ event, args });
    this.flush();
  }

  reset(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.queue = [];
    this.sentAt.clear();
  }

  private flush(): void {
    if (this.timer) return;
    for (let head = this.queue[0]; head; head = this.queue[0]) {
      const wait = Math.max(
        this.waitMs(GLOBAL_KEY, WS_LIMITS.global),
        this.waitMs(head.event, wsEventRate(head.event)),
      );
      if (wait > 0) {
        this.timer = setTimeout(() => {
          this.timer = null;
          this.flush();
        }, wait);
        return;
      }
      this.queue.shift();
      const at = this.now();
      this.record(GLOBAL_KEY, at);
      this.record(head.event, at);
      this.write(head.event, head.args);
    }
  }

  /** How long until one more frame fits in `key`'s window (0: now). */
  private waitMs(key: string, rate: WsRate): number {
    const times = this.sentAt.get(key) ?? [];
    const window = rate.perMs + MARGIN_MS;
    const now = this.now();
    while (times.length > 0 && times[0]! <= now - window) times.shift();
    return times.length < rate.burst ? 0 : times[times.length - rate.burst]! + window - now;
  }

  private record(key: string, at: number): void {
    const times = this.sentAt.get(key);
    if (times) times.push(at);
    else this.sentAt.set(key, [at]);
  }
}
