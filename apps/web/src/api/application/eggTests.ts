import type {
  EggTestRequest,
  EggTestRun as WireRun,
  EggTestStep as WireStep,
  EggTestStepName,
} from '@talon/shared/admin/egg-test-wire';
import { getItem, sendItem } from './http.ts';

/** The egg test runner (docs/api.md "Egg tests"): a run and its steps, as the admin egg page shows them. */
export type { EggTestRequest, EggTestStepName };

export interface EggTestStep {
  name: EggTestStepName;
  status: WireStep['status'];
  durationMs: number | null;
  message: string | null;
  lines: string[];
}

export interface EggTestRun {
  id: string;
  status: WireRun['status'];
  timeout: number;
  steps: EggTestStep[];
}

export function toEggTestRun(wire: WireRun): EggTestRun {
  return {
    id: wire.id,
    status: wire.status,
    timeout: wire.timeout,
    steps: wire.steps.map((s) => ({
      name: s.name,
      status: s.status,
      durationMs: s.duration_ms,
      message: s.message,
      lines: s.lines,
    })),
  };
}

/** Starts a test; the panel answers at once (202) with the run, its first step running. */
export function startEggTest(body: EggTestRequest): Promise<EggTestRun> {
  return sendItem('POST', '/egg-tests', body, toEggTestRun);
}

export function getEggTest(id: string): Promise<EggTestRun> {
  return getItem(`/egg-tests/${encodeURIComponent(id)}`, toEggTestRun);
}
