import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { LaunchSpec } from './driver.ts';
import { HOST_ENV } from './host-env.ts';
import { LAUNCHER_ARGV } from './launch-script.ts';

export interface SandboxOptions {
  bwrap: string;
  setpriv: string | null;
  /** Drop to this identity inside the sandbox (only when the daemon runs as root). */
  uid: number | null;
  gid: number | null;
  /** Host paths that must look empty inside (daemon config, other servers, panel data…). */
  hidden: string[];
  /** A file (the daemon config) that must read as empty inside. */
  hiddenFiles: string[];
}

// Directories the sandbox replaces wholesale with a tmpfs; hidden paths below them need no mount.
const REPLACED = ['/tmp', '/home', '/mnt'];
// Too broad to hide without breaking every program; their secrets are protected by mode bits.
const SYSTEM_DIRS = new Set([
  '/',
  '/etc',
  '/usr',
  '/var',
  '/opt',
  '/root',
  '/srv',
  '/run',
  '/lib',
  '/bin',
  '/sbin',
]);

function under(p: string, dir: string): boolean {
  return p === dir || p.startsWith(`${dir}/`);
}

/**
 * bubblewrap argv for one launch (launch pattern A of dependencies-and-host.md): the host read-only,
 * fresh /dev, /proc and /tmp, pid/ipc/uts namespaces, the server directory as the only writable
 * place, then setpriv drops to the unprivileged server uid with no capabilities and no-new-privs,
 * and the launcher applies the server's environment and argv (launch-script.ts). The network
 * namespace is shared on purpose: game servers must listen on their allocations.
 * Only the daemon's own values appear here (paths it chose, the uuid's first characters): no egg or
 * user value reaches bwrap's argv, environment or the root setpriv inside.
 */
export function bwrapArgs(
  spec: Pick<LaunchSpec, 'id' | 'kind' | 'serverDir' | 'installDir'>,
  opts: SandboxOptions,
  mountPoint: string,
): string[] {
  const args = [opts.bwrap, '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  for (const raw of opts.hidden) {
    const p = path.resolve(raw);
    if (SYSTEM_DIRS.has(p) || REPLACED.some((d) => under(p, d))) continue;
    if (!existsSync(p) || !statSync(p).isDirectory()) continue;
    args.push('--tmpfs', p);
  }
  for (const f of opts.hiddenFiles) {
    const p = path.resolve(f);
    if (REPLACED.some((d) => under(p, d)) || !existsSync(p)) continue;
    args.push('--ro-bind', '/dev/null', p);
  }
  args.push('--tmpfs', '/home', '--tmpfs', '/mnt');
  args.push('--bind', spec.serverDir, mountPoint);
  if (spec.installDir) args.push('--ro-bind', spec.installDir, '/mnt/install');
  args.push(
    '--chdir',
    mountPoint,
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--hostname',
    spec.kind === 'install' ? 'installer' : spec.id.slice(0, 8),
    '--die-with-parent',
    '--new-session',
    '--clearenv',
  );
  for (const [name, value] of Object.entries(HOST_ENV)) args.push('--setenv', name, value);
  if (opts.uid === null) args.push('--unshare-user'); // unprivileged daemon: pattern B
  args.push('--');
  if (opts.uid !== null && opts.setpriv) {
    args.push(
      opts.setpriv,
      `--reuid=${opts.uid}`,
      `--regid=${opts.gid ?? opts.uid}`,
      '--clear-groups',
      '--inh-caps=-all',
      '--bounding-set=-all',
      '--no-new-privs',
    );
  }
  return [...args, ...LAUNCHER_ARGV];
}

/**
 * Wrap argv so the launched process joins its cgroups before exec: everything it starts is
 * accounted and limited from the first instruction, and no daemon thread ever changes group.
 */
export function joinCgroupsArgv(dirs: string[], argv: string[]): string[] {
  if (dirs.length === 0) return argv;
  // The script text is a constant: the directories and the argv reach it only as positional
  // parameters ("$1", "$@"), which a shell never parses as syntax.
  const script =
    'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1/cgroup.procs" || exit 125; shift; n=$((n-1)); done; exec "$@"';
  return ['/bin/sh', '-c', script, 'talon-launch', String(dirs.length), ...dirs, ...argv];
}
