import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WS_INBOUND } from '@talon/shared/wings/events';
import { MAX_QUEUED, OutboundPacer } from './outboundPacer.ts';

/**
 * The daemon's limits (protocol §9.2b) as it applies them: token buckets refilled continuously, a
 * global one of 10 per 2 s for every frame, then 2 per 5 s for `auth` and `send logs`, 10 per
 * second for `send command`, 4 per second for any other event. Written here from the protocol's
 * words, so the pacer is checked against the rule, not against itself.
 */
function daemonLimits(now: () => number) {
  const rates: Record<string, [number, number]> = {
    [WS_INBOUND.auth]: [2, 5000],
    [WS_INBOUND.sendLogs]: [2, 5000],
    [WS_INBOUND.sendCommand]: [10, 1000],
  };
  const buckets = new Map<string, { tokens: number; at: number; burst: number; perMs: number }>();
  const take = (key: string, [burst, perMs]: [number, number]) => {
    const b = buckets.get(key) ?? { tokens: burst, at: now(), burst, perMs };
    b.tokens = Math.min(b.burst, b.tokens + ((now() - b.at) * b.burst) / b.perMs);
    b.at = now();
    buckets.set(key, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  };
  const throttled: string[] = [];
  return {
    throttled,
    receive(event: string) {
      if (!take('\0global', [10, 2000])) throttled.push('global');
      else if (!take(event, rates[event] ?? [4, 1000])) throttled.push(event);
    },
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('OutboundPacer', () => {
  it('sends at once while under the limits', () => {
    const sent: string[] = [];
    const pacer = new OutboundPacer((event) => sent.push(event), vi.fn());
    pacer.push(WS_INBOUND.auth, ['t']);
    pacer.push(WS_INBOUND.sendStats, []);
    pacer.push(WS_INBOUND.sendLogs, []);
    expect(sent).toEqual(['auth', 'send stats', 'send logs']);
  });

  it('a user pressing Enter and the power buttons as fast as they can is never throttled, and nothing is lost', () => {
    const daemon = daemonLimits(() => Date.now());
    const sent: string[][] = [];
    const pacer = new OutboundPacer((event, args) => {
      sent.push([event, ...args]);
      daemon.receive(event);
    }, vi.fn());
    // 20 commands and 2 power presses in one go, then more, a second apart.
    for (let i = 0; i < 20; i++) pacer.push(WS_INBOUND.sendCommand, [`say ${i}`]);
    for (let i = 0; i < 2; i++) pacer.push(WS_INBOUND.setState, ['restart']);
    for (let i = 20; i < 30; i++) {
      vi.advanceTimersByTime(1000);
      pacer.push(WS_INBOUND.sendCommand, [`say ${i}`]);
      pacer.push(WS_INBOUND.setState, ['restart']);
      pacer.push(WS_INBOUND.sendStats, []);
    }
    vi.advanceTimersByTime(60_000);
    expect(daemon.throttled).toEqual([]);
    expect(sent.filter(([e]) => e === 'send command').map(([, a]) => a)).toEqual(
      Array.from({ length: 30 }, (_, i) => `say ${i}`),
    );
    expect(sent.filter(([e]) => e === 'set state')).toHaveLength(12);
  });

  it('(the daemon model above throttles the same frames sent without pacing)', () => {
    const daemon = daemonLimits(() => Date.now());
    for (let i = 0; i < 20; i++) daemon.receive(WS_INBOUND.sendCommand);
    expect(daemon.throttled).toEqual(Array.from({ length: 10 }, () => 'global'));
  });

  it('keeps the order of what it sends', () => {
    const sent: string[] = [];
    const pacer = new OutboundPacer((event, args) => sent.push(`${event}:${args.join()}`), vi.fn());
    for (let i = 0; i < 12; i++) pacer.push(WS_INBOUND.sendCommand, [String(i)]);
    pacer.push(WS_INBOUND.setState, ['stop']);
    vi.advanceTimersByTime(10_000);
    expect(sent.at(-1)).toBe('set state:stop');
    expect(sent.slice(0, 12)).toEqual(Array.from({ length: 12 }, (_, i) => `send command:${i}`));
  });

  it('asks for logs and stats once however often it is asked while waiting; a waiting auth takes the newest token', () => {
    const sent: string[] = [];
    const pacer = new OutboundPacer((event, args) => sent.push(`${event}:${args.join()}`), vi.fn());
    for (let i = 0; i < 5; i++) pacer.push(WS_INBOUND.sendLogs, []);
    for (let i = 0; i < 4; i++) pacer.push(WS_INBOUND.auth, [`token${i}`]);
    vi.advanceTimersByTime(60_000);
    expect(sent).toEqual(['send logs:', 'send logs:', 'send logs:', 'auth:token3']);
  });

  it('drops what is over the queue and says so, instead of holding it for minutes', () => {
    const sent: string[] = [];
    const dropped = vi.fn();
    const pacer = new OutboundPacer((event) => sent.push(event), dropped);
    for (let i = 0; i < 10 + MAX_QUEUED + 5; i++) pacer.push(WS_INBOUND.sendCommand, [String(i)]);
    expect(dropped).toHaveBeenCalledTimes(5);
    vi.advanceTimersByTime(60_000);
    expect(sent).toHaveLength(10 + MAX_QUEUED);
  });

  it('reset() forgets what waited (a new connection has its own limits)', () => {
    const sent: string[] = [];
    const pacer = new OutboundPacer((event) => sent.push(event), vi.fn());
    for (let i = 0; i < 3; i++) pacer.push(WS_INBOUND.auth, ['t']);
    expect(sent).toHaveLength(2);
    pacer.reset();
    vi.advanceTimersByTime(60_000);
    expect(sent).toHaveLength(2);
    pacer.push(WS_INBOUND.auth, ['t']);
    expect(sent).toHaveLength(3);
  });
});
