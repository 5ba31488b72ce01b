/**
 * Arithmetic of the top progress bar (spec §4). `random` is injectable so tests are exact.
 * Continuous mode starts at 20–30, adds 1–5 every tick (500 ms), never passes 90; at 100 the bar
 * clears after 500 ms.
 */
export const PROGRESS_TICK_MS = 500;
export const PROGRESS_CLEAR_MS = 500;
export const PROGRESS_CAP = 90;

/** A whole number in [min, max], inclusive. */
export function randomInt(min: number, max: number, random: () => number = Math.random): number {
  return min + Math.floor(random() * (max - min + 1));
}

export function continuousStart(random: () => number = Math.random): number {
  return randomInt(20, 30, random);
}

export function continuousStep(current: number, random: () => number = Math.random): number {
  return Math.min(PROGRESS_CAP, current + randomInt(1, 5, random));
}

/** Requests to paths ending in /resources never move the bar. */
export function tracksProgress(url: string): boolean {
  const path = url.split(/[?#]/)[0] ?? '';
  return !/\/resources\/?$/.test(path);
}
