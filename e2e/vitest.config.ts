import { defineConfig } from 'vitest/config';

// Browser tests: real panel processes driven through Debian's Chromium. One file at a time keeps
// the two cores for the panel and the browser.
export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['**/*.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    // expect.poll waits on what a page does next (a route change, a list arriving): a page booting
    // on a loaded machine can take more than Vitest's default second, and a poll ends as soon as
    // its condition holds, so a longer limit costs nothing when the machine is quiet.
    expect: { poll: { timeout: 10_000 } },
  },
});
