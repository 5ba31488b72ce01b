/**
 * Bounds of an egg test run's waits, in seconds. Kept apart from egg-test-wire.ts (zod schemas) so
 * the web app's egg page can read them without bundling zod's full API: the bundler puts every zod
 * module into the sign-in page's form chunk (apps/web/vite.config.ts), which has a size budget.
 */
export const EGG_TEST_DEFAULT_TIMEOUT = 300;
export const EGG_TEST_MAX_TIMEOUT = 3600;
