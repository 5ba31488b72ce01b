import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

// PTERODACTYL_CLIENT_ALLOCATIONS_*: off by default, no range unless both ends are set.
let dataDir: string;

beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'talon-config-'));
});
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

const problems = (env: Record<string, string>): string[] => {
  try {
    loadConfig({ DATA_DIR: dataDir, ...env });
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
};

describe('client allocation settings', () => {
  it('are off, without a range, by default', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).clientAllocations).toEqual({ enabled: false, range: null });
  });

  it('read the switch and the range; one end alone or empty values mean no range', () => {
    expect(
      loadConfig({
        DATA_DIR: dataDir,
        PTERODACTYL_CLIENT_ALLOCATIONS_ENABLED: 'true',
        PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_START: '30000',
        PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_END: '30100',
      }).clientAllocations,
    ).toEqual({ enabled: true, range: [30000, 30100] });
    expect(
      loadConfig({ DATA_DIR: dataDir, PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_START: '30000' }).clientAllocations
        .range,
    ).toBeNull();
    expect(
      loadConfig({
        DATA_DIR: dataDir,
        PTERODACTYL_CLIENT_ALLOCATIONS_ENABLED: '',
        PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_START: '',
        PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_END: '',
      }).clientAllocations,
    ).toEqual({ enabled: false, range: null });
  });

  it('refuses ports up to 1024 or above 65535, a reversed range and a switch that is not a boolean', () => {
    expect(problems({ PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_START: '1024' })).toEqual([
      'PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_START: must be a port above 1024',
    ]);
    expect(problems({ PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_END: '70000' })).toEqual([
      'PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_END: must be at most 65535',
    ]);
    expect(
      problems({
        PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_START: '30100',
        PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_END: '30000',
      }),
    ).toEqual([
      'PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_END: must not be below PTERODACTYL_CLIENT_ALLOCATIONS_RANGE_START',
    ]);
    expect(problems({ PTERODACTYL_CLIENT_ALLOCATIONS_ENABLED: 'maybe' })).toHaveLength(1);
  });
});
