import { WS_INBOUND } from './events.ts';

/**
 * The daemon's websocket limits (protocol §9.2b, CVE-2025-69199), stated once: the daemon enforces
 * them (apps/daemon/src/ws/limits.ts) and the web app paces what it sends to stay under them
 * (apps/web/src/features/server/outboundPacer.ts).
 */
export interface WsRate {
  /** messages allowed at once */
  burst: number;
  /** time in which a whole burst is refilled (one message every perMs / burst) */
  perMs: number;
}

export const WS_LIMITS = {
  connectionsPerServer: 30,
  maxFrameBytes: 4096,
  /** every frame of a socket, whatever it holds */
  global: { burst: 10, perMs: 200 * 10 },
  /** any event without a rate of its own (unknown names share one bucket) */
  other: { burst: 4, perMs: 1000 },
} as const satisfies Record<string, number | WsRate>;

const EVENT_RATES: Readonly<Record<string, WsRate>> = {
  [WS_INBOUND.auth]: { burst: 2, perMs: 5000 },
  [WS_INBOUND.sendLogs]: { burst: 2, perMs: 5000 },
  [WS_INBOUND.sendCommand]: { burst: 10, perMs: 1000 },
};

/** The rate of one inbound event. */
export function wsEventRate(event: string): WsRate {
  return EVENT_RATES[event] ?? WS_LIMITS.other;
}
