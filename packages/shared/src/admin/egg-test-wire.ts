import { z } from 'zod';

/**
 * The egg test runner (issue 25, our extension, docs/api.md "Egg tests"): a throwaway server of the
 * egg is created, installed, started until the egg's done line, stopped and removed; each step is
 * reported with its time and the console lines it printed. The panel's CLI (`egg:test`) and the
 * admin egg page's Test button read the same run.
 */

/** The steps of a run, in order. */
export const EGG_TEST_STEPS = ['create', 'install', 'start', 'stop', 'remove'] as const;
export type EggTestStepName = (typeof EGG_TEST_STEPS)[number];

export const eggTestStepSchema = z.object({
  name: z.enum(EGG_TEST_STEPS),
  status: z.enum(['pending', 'running', 'passed', 'failed', 'skipped']),
  /** How long the step took (so far, while running); null before it starts. */
  duration_ms: z.number().int().nullable(),
  /** What happened, in words (the reason when it failed). */
  message: z.string().nullable(),
  /** The last console, install and daemon lines printed while the step ran (at most EGG_TEST_LINES). */
  lines: z.array(z.string()),
});
export type EggTestStep = z.infer<typeof eggTestStepSchema>;

/** `{ object: 'egg_test', attributes }`. */
export const eggTestRunSchema = z.object({
  id: z.string(),
  egg: z.number().int(),
  node: z.number().int(),
  status: z.enum(['running', 'passed', 'failed']),
  /** Each wait (install, start, stop) is bounded by this many seconds. */
  timeout: z.number().int(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  steps: z.array(eggTestStepSchema),
});
export type EggTestRun = z.infer<typeof eggTestRunSchema>;

/** The body of `POST /api/application/egg-tests`. */
export interface EggTestRequest {
  egg: number;
  /** A node id; default: the first node with a free allocation. */
  node?: number | null;
  /** Values of the egg's variables; the others keep their defaults. */
  environment?: Record<string, string>;
  /** Seconds each wait may take (install, start, stop); default EGG_TEST_DEFAULT_TIMEOUT. */
  timeout?: number | null;
}

export { EGG_TEST_DEFAULT_TIMEOUT, EGG_TEST_MAX_TIMEOUT } from './egg-test-limits.ts';
/** Console lines kept per step. */
export const EGG_TEST_LINES = 20;
