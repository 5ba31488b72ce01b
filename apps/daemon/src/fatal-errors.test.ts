import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const here = import.meta.dirname;

/** Run a tiny program that installs the daemon's handlers with a JSON pino logger, then fails. */
function run(failure: string): Promise<{ code: number | null; lines: Record<string, any>[] }> {
  const program = `
    import pino from 'pino';
    import { logFatalErrors } from ${JSON.stringify(path.join(here, 'fatal-errors.ts'))};
    logFatalErrors(pino({ base: { svc: 'daemon' } }));
    ${failure}
    setTimeout(() => console.log('still alive'), 2000);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], {
    cwd: here,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve) =>
    child.once('exit', (code) =>
      resolve({
        code,
        lines: out
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as Record<string, any>),
      }),
    ),
  );
}

describe('daemon fatal error handlers', () => {
  it('logs an unhandled rejection at fatal level with its error, then exits 1', async () => {
    const { code, lines } = await run(`void Promise.reject(new Error('panel went away'));`);
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 60, svc: 'daemon', msg: 'unhandled promise rejection; exiting' });
    expect(lines[0]!.err.message).toBe('panel went away');
    expect(lines[0]!.err.stack).toContain('Error: panel went away');
  });

  it('logs an uncaught exception at fatal level, then exits 1', async () => {
    const { code, lines } = await run(`setTimeout(() => { throw new TypeError('bad state'); }, 10);`);
    expect(code).toBe(1);
    expect(lines[0]).toMatchObject({
      level: 60,
      msg: 'uncaught exception; exiting',
      origin: 'uncaughtException',
    });
    expect(lines[0]!.err).toMatchObject({ type: 'TypeError', message: 'bad state' });
  });
});
