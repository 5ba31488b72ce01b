import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config/config.ts';

// BACKUP_THROTTLE_LIMIT, BACKUP_THROTTLE_PERIOD and BACKUP_PRUNE_AGE: the reference's defaults.
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

describe('backup settings', () => {
  it('default to 2 backups per 600 s and a prune age of 360 minutes', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).backups).toEqual({
      throttleLimit: 2,
      throttlePeriodSeconds: 600,
      pruneAgeMinutes: 360,
    });
  });

  it('are read from the environment; a period of 0 (no throttle) is allowed', () => {
    expect(
      loadConfig({
        DATA_DIR: dataDir,
        BACKUP_THROTTLE_LIMIT: '5',
        BACKUP_THROTTLE_PERIOD: '0',
        BACKUP_PRUNE_AGE: '60',
      }).backups,
    ).toEqual({ throttleLimit: 5, throttlePeriodSeconds: 0, pruneAgeMinutes: 60 });
  });

  it('refuses values that are not whole numbers in range, naming each', () => {
    const found = problems({
      BACKUP_THROTTLE_LIMIT: '0',
      BACKUP_THROTTLE_PERIOD: '-1',
      BACKUP_PRUNE_AGE: 'soon',
    });
    expect(found.map((p) => p.split(':')[0])).toEqual([
      'BACKUP_THROTTLE_LIMIT',
      'BACKUP_THROTTLE_PERIOD',
      'BACKUP_PRUNE_AGE',
    ]);
  });
});
