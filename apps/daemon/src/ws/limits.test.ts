import { describe, expect, it } from 'vitest';
import { MessageLimiter } from './limits.ts';

/** A limiter on a clock the test moves by hand. */
function limiter() {
  let t = 1_000_000;
  const l = new MessageLimiter(() => t);
  return {
    l,
    advance: (ms: number) => {
      t += ms;
    },
    /** How many of `n` back-to-back calls pass. */
    passes: (n: number, call: () => boolean) => Array.from({ length: n }, call).filter(Boolean).length,
  };
}

describe('websocket message limits (CVE-2025-69199)', () => {
  it('a socket gets a burst of 10 frames, then one more per 200 ms', () => {
    const { l, advance, passes } = limiter();
    expect(passes(15, () => l.frame())).toBe(10);
    advance(199);
    expect(l.frame()).toBe(false);
    advance(1);
    expect(l.frame()).toBe(true);
    expect(l.frame()).toBe(false);
    advance(60_000); // refills to the burst, never beyond
    expect(passes(15, () => l.frame())).toBe(10);
  });

  it('auth and send logs: 2 per 5 s each', () => {
    const { l, advance, passes } = limiter();
    expect(passes(5, () => l.event('auth'))).toBe(2);
    expect(passes(5, () => l.event('send logs'))).toBe(2);
    advance(2499);
    expect(l.event('auth')).toBe(false);
    advance(1);
    expect(l.event('auth')).toBe(true);
    advance(5000);
    expect(passes(5, () => l.event('send logs'))).toBe(2);
  });

  it('send command: 10 per second', () => {
    const { l, advance, passes } = limiter();
    expect(passes(20, () => l.event('send command'))).toBe(10);
    advance(100);
    expect(passes(5, () => l.event('send command'))).toBe(1);
  });

  it('any other event 4 per second, each known event its own; unknown names share one bucket', () => {
    const { l, advance, passes } = limiter();
    expect(passes(10, () => l.event('send stats'))).toBe(4);
    expect(passes(10, () => l.event('set state'))).toBe(4);
    let i = 0;
    expect(passes(10, () => l.event(`made-up ${i++}`))).toBe(4);
    advance(250);
    expect(passes(10, () => l.event('send stats'))).toBe(1);
  });
});
