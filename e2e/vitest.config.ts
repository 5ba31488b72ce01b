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
  },
});
