import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { HOST_ENV } from './host-env.ts';
import { LAUNCH_SCRIPT_FD, LAUNCHER_ARGV, launchScript } from './launch-script.ts';

/** Runs the real launcher as the driver does (fixed environment, script on fd 3); its stdout and status. */
function launch(env: Record<string, string>, argv: string[]): Promise<{ out: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(LAUNCHER_ARGV[0]!, LAUNCHER_ARGV.slice(1), {
      env: { ...HOST_ENV },
      stdio: ['ignore', 'pipe', 'inherit', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ out, code }));
    (child.stdio[LAUNCH_SCRIPT_FD] as Writable).end(launchScript(env, argv));
  });
}

describe('the launch script', () => {
  it('gives the program exactly its environment and argv, every value taken literally', async () => {
    const tricky = `it's "$(id -u)" \`id\` $HOME ; exit 3\nsecond line \\ end`;
    const { out, code } = await launch({ PATH: '/usr/bin:/bin', TRICKY: tricky, EMPTY: '' }, [
      '/usr/bin/env',
      '-0',
    ]);
    expect(code).toBe(0);
    const env = Object.fromEntries(
      out
        .split('\0')
        .filter(Boolean)
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    // LANG came from the fixed host environment and is not the server's: unset. PWD is the shell's own.
    delete env.PWD;
    expect(env).toEqual({ PATH: '/usr/bin:/bin', TRICKY: tricky, EMPTY: '' });

    const args = await launch({ PATH: '/usr/bin:/bin' }, ['/usr/bin/printf', '[%s]', tricky, "'"]);
    expect(args.out).toBe(`[${tricky}][']`);
  });

  it('closes its descriptor before the program runs', async () => {
    // `[` is the shell's builtin: /proc/self is the program's own process.
    const { out } = await launch({ PATH: '/usr/bin:/bin' }, [
      '/bin/sh',
      '-c',
      'if [ -e /proc/self/fd/3 ]; then echo open; else echo closed; fi',
    ]);
    expect(out).toBe('closed\n');
  });

  it('refuses a name a shell cannot export', () => {
    expect(() => launchScript({ 'A-B': 'x' }, ['/bin/true'])).toThrow(/invalid environment variable name/u);
  });
});
