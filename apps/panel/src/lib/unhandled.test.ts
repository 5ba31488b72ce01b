import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../../..');
const moduleUrl = new URL('./unhandled.ts', import.meta.url).href;

/**
 * Runs a real Node process that installs the handlers on a pino logger and then fails in `failure`;
 * an interval keeps it alive, so it only ends when the handler ends it.
 */
async function run(failure: string): Promise<{ code: number | null; lines: Record<string, any>[] }> {
  const script = [
    `import { pino } from 'pino';`,
    `import { exitOnUnhandled } from ${JSON.stringify(moduleUrl)};`,
    `exitOnUnhandled(pino());`,
    `setInterval(() => {}, 1 << 30);`,
    failure,
  ].join('\n');
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  const lines = out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, any>);
  return { code, lines };
}

describe('unhandled errors in the panel process', () => {
  it('logs an unhandled rejection as fatal through pino and exits with 1', async () => {
    const { code, lines } = await run(`setTimeout(() => Promise.reject(new Error('lost rejection')), 10);`);
    expect(code).toBe(1);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 60,
        msg: 'unhandled promise rejection',
        err: expect.objectContaining({ message: 'lost rejection' }),
      }),
    ]);
  });

  it('logs an uncaught exception as fatal through pino and exits with 1', async () => {
    const { code, lines } = await run(`setTimeout(() => { throw new Error('thrown in a timer'); }, 10);`);
    expect(code).toBe(1);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 60,
        msg: 'uncaught exception',
        err: expect.objectContaining({
          message: 'thrown in a timer',
          stack: expect.stringContaining('Error'),
        }),
      }),
    ]);
  });
});
