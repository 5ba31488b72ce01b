import ignore, { type Ignore } from 'ignore';
import { closeQuietly } from '../fs/at.ts';
import type { Jail } from '../fs/jail.ts';

/** A `.pteroignore` larger than this is not used (as Wings). */
const MAX_IGNORE_FILE = 32 * 1024;

/**
 * The ignore rules of one backup (protocol §8.10): the request's `ignore` (newline-separated
 * gitignore patterns) when it has any, else `.pteroignore` in the server root when that is a
 * regular file (never a link: opened O_NOFOLLOW through the jail) of at most 32 KiB, else none.
 */
export async function backupIgnoreRules(jail: Jail, requested: string): Promise<Ignore | null> {
  if (requested.trim() !== '') return ignore().add(requested);
  let opened;
  try {
    opened = await jail.openRead('.pteroignore');
  } catch {
    return null; // missing, a link, a directory…
  }
  try {
    if (opened.stat.size > MAX_IGNORE_FILE) return null;
    const text = (await opened.handle.readFile()).toString('utf8');
    return text.trim() === '' ? null : ignore().add(text);
  } finally {
    await closeQuietly(opened.handle);
  }
}
