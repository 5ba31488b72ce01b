import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemInfoV2Schema } from '@talon/shared/wings/system-v2';
import { startStack, type Stack } from '../test-support/harness.ts';
import { distributionName } from './system-info.ts';

describe('GET /api/system', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  it('answers the plain Wings shape without v=2', async () => {
    const res = await stack.api('GET', '/api/system');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ os: 'linux', cpu_count: os.cpus().length, version: '0.1.0' });
    expect(res.body.system).toBeUndefined();
    // Our extension: how servers run here (processes; no Docker network).
    expect(res.body.runtime).toMatchObject({ driver: 'process', network: null });
  });

  it('answers the v=2 shape with the total memory and the distribution name', async () => {
    const res = await stack.api('GET', '/api/system?v=2');
    expect(res.status).toBe(200);
    const body = systemInfoV2Schema.parse(res.body);
    expect(body.version).toBe('0.1.0');
    expect(body.system.memory_bytes).toBe(os.totalmem());
    expect(body.system.cpu_threads).toBe(os.cpus().length);
    expect(body.system.os_type).toBe('linux');
    expect(body.system.os).not.toBe('');
    expect(res.body.cpu_count).toBeUndefined();
    expect(body.runtime).toMatchObject({ driver: 'process', network: null });
  });

  it('reads PRETTY_NAME, else NAME, from os-release text', () => {
    expect(distributionName('NAME="Debian GNU/Linux"\nPRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n')).toBe(
      'Debian GNU/Linux 12 (bookworm)',
    );
    expect(distributionName("NAME='Alpine Linux'\nID=alpine\n")).toBe('Alpine Linux');
    expect(distributionName('ID=x\n')).toBeNull();
  });
});
