import { describe, expect, it } from 'vitest';
import { continuousStart, continuousStep, PROGRESS_CAP, randomInt, tracksProgress } from './progress.ts';

const fixed = (value: number) => () => value;

describe('progress arithmetic', () => {
  it('starts continuous mode between 20 and 30 inclusive', () => {
    expect(continuousStart(fixed(0))).toBe(20);
    expect(continuousStart(fixed(0.5))).toBe(25);
    expect(continuousStart(fixed(0.9999))).toBe(30);
    for (let i = 0; i < 200; i++) {
      const v = continuousStart();
      expect(v).toBeGreaterThanOrEqual(20);
      expect(v).toBeLessThanOrEqual(30);
    }
  });
  it('adds 1 to 5 per step', () => {
    expect(continuousStep(40, fixed(0))).toBe(41);
    expect(continuousStep(40, fixed(0.9999))).toBe(45);
  });
  it('never passes 90', () => {
    expect(PROGRESS_CAP).toBe(90);
    expect(continuousStep(88, fixed(0.9999))).toBe(90);
    expect(continuousStep(90, fixed(0.5))).toBe(90);
  });
  it('randomInt covers the closed range', () => {
    expect(randomInt(1, 5, fixed(0))).toBe(1);
    expect(randomInt(1, 5, fixed(0.99))).toBe(5);
  });
  it('ignores requests to paths ending in /resources', () => {
    expect(tracksProgress('/api/client/servers/abc/resources')).toBe(false);
    expect(tracksProgress('/api/client/servers/abc/resources?x=1')).toBe(false);
    expect(tracksProgress('/api/client/servers/abc')).toBe(true);
    expect(tracksProgress('/api/client/resources-list')).toBe(true);
  });
});
