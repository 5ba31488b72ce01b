import { defineConfig } from 'vitest/config';

// One project per workspace; `npm test` (scripts/test.mjs) runs them, then again on PostgreSQL.
export default defineConfig({
  test: {
    projects: ['packages/shared', 'apps/panel', 'apps/daemon', 'apps/web', 'e2e'],
  },
});
