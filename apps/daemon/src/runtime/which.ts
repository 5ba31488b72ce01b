import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** Where programs are looked for when the daemon's own PATH lacks them (a bare systemd unit). */
export const STANDARD_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

function isExecutableFile(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The absolute path of `program` on a PATH-style search list, or null: what `command -v` answers,
 * without a shell, so a program name can never be read as shell syntax. Relative PATH entries are
 * skipped (they would depend on the daemon's working directory).
 */
export function findProgram(program: string, searchPath: string): string | null {
  if (program === '' || program.includes('/')) return null;
  for (const dir of searchPath.split(':')) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, program);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}
