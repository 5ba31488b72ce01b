import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  define: { __TALON_BUILD__: JSON.stringify('test') },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // These suites share two cores with the daemon-backed ones in CI: a page of 250 rows can take
    // seconds to render in jsdom there. Bounds, not speed checks (those live in bench/).
    testTimeout: 30_000,
  },
});
