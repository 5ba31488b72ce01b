/**
 * Backgrounds of the initials avatars, each with white text at a contrast of at least 4.5:1
 * (WCAG AA for normal text; avatarColour.test.ts measures it).
 */
export const AVATAR_COLOURS = [
  '#0369a1', // sky
  '#047857', // emerald
  '#6d28d9', // violet
  '#be123c', // rose
  '#b45309', // amber
  '#0f766e', // teal
  '#4338ca', // indigo
  '#a21caf', // fuchsia
] as const;

/**
 * The same colour for the same person on every page and every visit (FNV-1a over the lower-cased
 * email, or the username when there is none): people can be told apart at a glance.
 */
export function avatarColour(key: string): string {
  let hash = 0x811c9dc5;
  for (const char of key.toLowerCase()) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return AVATAR_COLOURS[hash % AVATAR_COLOURS.length]!;
}
