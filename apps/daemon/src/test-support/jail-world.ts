import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { FileError } from '../fs/errors.ts';
import { Jail } from '../fs/jail.ts';

/** A server directory with its jail, and an "outside" (host) directory holding `secret`. */
export interface JailWorld {
  root: string;
  outside: string;
  jail: Jail;
}

/** The text every jail test plants outside the server: it must never be read or changed. */
export const OUTSIDE_SECRET = 'OUTSIDE SECRET';

/** A fresh {@link JailWorld} for each test of the file, handed to `use`; removed after each test. */
export function useJailWorld(prefix: string, use: (world: JailWorld) => void): void {
  let base = '';
  let outside = '';
  beforeEach(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), prefix));
    outside = await mkdtemp(path.join(os.tmpdir(), 'talon-outside-'));
    const root = path.join(base, 'server');
    await mkdir(root);
    await writeFile(path.join(outside, 'secret'), OUTSIDE_SECRET);
    use({ root, outside, jail: new Jail(root) });
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });
}

/** The FileError kind a jail operation failed with, or `ok`. */
export async function kindOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof FileError) return err.kind;
    throw err;
  }
  return 'ok';
}
