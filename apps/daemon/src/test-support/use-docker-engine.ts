import { afterAll, beforeAll } from 'vitest';
import { startDockerEngine, type DockerEngine } from './docker-engine.ts';

/**
 * One Docker Engine for the enclosing describe block (or file): started before its tests, stopped
 * after them. The returned object is filled in by the beforeAll hook, so tests read `engine.host`
 * and `engine.docker` as usual. Kept apart from docker-engine.ts, which the benchmark imports
 * outside vitest.
 */
export function useDockerEngine(): DockerEngine {
  const engine = {} as DockerEngine;
  let started: DockerEngine | undefined;
  beforeAll(async () => {
    started = await startDockerEngine();
    Object.assign(engine, started);
  }, 120_000);
  afterAll(async () => {
    await started?.stop();
  }, 120_000);
  return engine;
}
