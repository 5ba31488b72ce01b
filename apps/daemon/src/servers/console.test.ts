import { describe, expect, it } from 'vitest';
import { RingBuffer } from './console.ts';

describe('RingBuffer', () => {
  it('keeps the last lines in order, however many were pushed', () => {
    const ring = new RingBuffer(3);
    expect(ring.last(5)).toEqual([]);
    ring.push('a');
    ring.push('b');
    expect(ring.last(5)).toEqual(['a', 'b']);
    for (const line of ['c', 'd', 'e']) ring.push(line);
    expect(ring.last(3)).toEqual(['c', 'd', 'e']);
    expect(ring.last(2)).toEqual(['d', 'e']);
    expect(ring.last(0)).toEqual([]);
    expect(ring.last(-1)).toEqual([]);
    ring.clear();
    expect(ring.last(3)).toEqual([]);
    ring.push('f');
    expect(ring.last(3)).toEqual(['f']);
  });
});
