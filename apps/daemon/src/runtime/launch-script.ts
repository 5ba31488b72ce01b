import { HOST_ENV } from './host-env.ts';

/**
 * How a server's environment and argv reach its process without passing through a host process's
 * argv or environment (issue 23): the daemon writes them as a shell script into a pipe on fd 3, and
 * the last step of every launch, already running as the server's user (inside the sandbox when
 * confined), reads it and runs it. Everything before that step (bwrap, setpriv, the cgroup join)
 * runs with the fixed HOST_ENV and an argv of the daemon's own constants.
 */

/** The fd the launch script arrives on. */
export const LAUNCH_SCRIPT_FD = 3;

/**
 * The final step: read the script (fd 3 is read directly, never reopened through /dev/fd, which a
 * process that dropped its privileges may not do on a pipe root made) and run it. Constant text.
 */
export const LAUNCHER_ARGV = ['/bin/sh', '-c', `eval "$(cat <&${LAUNCH_SCRIPT_FD})"`, 'talon-launch'];

/** A valid environment name; others cannot be exported by a shell and are dropped earlier. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/u;

/** `'…'` with each `'` closed, escaped and reopened: a shell reads the text back unchanged. */
function quote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * The script: export each variable, then exec argv with fd 3 closed, so the program inherits
 * exactly `env` (the launch shell started with HOST_ENV only: what `env` does not set is unset) and no descriptor of the launch.
 */
export function launchScript(env: Record<string, string>, argv: string[]): string {
  const lines = Object.keys(HOST_ENV)
    .filter((name) => !(name in env))
    .map((name) => `unset ${name}`);
  for (const [name, value] of Object.entries(env)) {
    if (!NAME.test(name)) throw new Error(`invalid environment variable name ${JSON.stringify(name)}`);
    if (value.includes('\0')) throw new Error(`environment variable ${name} holds a NUL byte`);
    lines.push(`export ${name}=${quote(value)}`);
  }
  if (argv.length === 0) throw new Error('nothing to launch');
  lines.push(`exec ${argv.map(quote).join(' ')} ${LAUNCH_SCRIPT_FD}<&-`);
  return `${lines.join('\n')}\n`;
}
