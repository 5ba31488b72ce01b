import { describe, expect, it } from 'vitest';
import { paginated } from './envelope.ts';

const rows = [{ id: 1 }];

function links(url: string, page: number, keepQuery = true) {
  const answer = paginated('server', rows, 30, { page, perPage: 10 }, new URL(url), keepQuery);
  return (answer.meta?.pagination as { links: Record<string, string> }).links;
}

describe('pagination links', () => {
  it('point at the route without the trailing slash the request may have carried', () => {
    // nodeactyl asks for `api/client/?page=N`; the original's links name the route itself.
    expect(links('https://panel.test/api/client/?page=2', 2)).toEqual({
      previous: 'https://panel.test/api/client?page=1',
      next: 'https://panel.test/api/client?page=3',
    });
  });

  it('keep the other query parameters only where the endpoint appends them', () => {
    expect(links('https://panel.test/api/client?type=admin&page=1', 1).next).toBe(
      'https://panel.test/api/client?type=admin&page=2',
    );
    expect(links('https://panel.test/api/application/users?filter[email]=a&page=3', 3, false)).toEqual({
      previous: 'https://panel.test/api/application/users?page=2',
    });
  });
});
