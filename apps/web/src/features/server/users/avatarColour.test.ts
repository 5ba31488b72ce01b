import { describe, expect, it } from 'vitest';
import { AVATAR_COLOURS, avatarColour } from './avatarColour.ts';

/** WCAG 2 relative luminance of a `#rrggbb` colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

describe('initials avatar colours', () => {
  it('give white initials a contrast of at least 4.5:1 on every background', () => {
    for (const colour of AVATAR_COLOURS) {
      const ratio = (1 + 0.05) / (luminance(colour) + 0.05);
      expect(ratio, colour).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('are the same for the same person, whatever the case, and differ between people', () => {
    expect(avatarColour('alice@example.com')).toBe(avatarColour('Alice@Example.com'));
    const people = ['alice@example.com', 'bob@example.com', 'carol@example.com', 'dave@example.com'];
    expect(new Set(people.map(avatarColour)).size).toBeGreaterThan(1);
    for (const person of people) expect(AVATAR_COLOURS).toContain(avatarColour(person));
  });
});
