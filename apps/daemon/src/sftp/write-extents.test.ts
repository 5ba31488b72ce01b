import { expect, it } from 'vitest';
import { WriteExtents, grow } from './write-extents.ts';

const file = { dev: 1, ino: 42 };

// The accounting rule of SFTP writes (CVE-2026-61617), on its own: what each write counts.
it('writes in flight together count each byte once; a refused one gives its count back', () => {
  const t = new WriteExtents();
  const { extent } = t.opened(file);
  const a = grow(extent, 0, 100);
  const b = grow(extent, 100, 100);
  const again = grow(extent, 50, 100); // inside what a and b counted
  expect([a.bytes, b.bytes, again.bytes]).toEqual([100, 100, 0]);
  b.undo();
  expect(extent.bytes).toBe(100);
});

it('a truncation under way makes every handle on the file count from 0, before the open ends', () => {
  const t = new WriteExtents();
  const first = t.opened(file);
  grow(first.extent, 0, 900);
  // A second open is about to truncate the file: a write through the first handle that lands
  // meanwhile rewrites freed bytes and must count them.
  t.truncating(file);
  expect(grow(first.extent, 0, 900).bytes).toBe(900);
  const second = t.opened(file);
  expect(second.extent).toBe(first.extent);
  first.release();
  second.release();
  expect(t.opened(file).extent).not.toBe(first.extent);
});
