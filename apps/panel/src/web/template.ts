import { readFile, stat } from 'node:fs/promises';

/**
 * The built index.html, following the file on disk: a rebuild of the web app replaces it and deletes
 * the hashed assets the old one names, so a copy kept from start-up would serve a blank page.
 *
 * One `stat` per page view decides whether to read the file again. fs.watch is not used: the build
 * empties the output directory (the watched inode goes away with it), and its events are unreliable
 * on some file systems; a stat is tiny next to the database work each page view already does.
 * Inode, size, mtime and ctime together notice a replaced file even inside mtime's granularity.
 */
export function templateFile(file: string, fallback: string): () => Promise<string> {
  let cached: { key: string; text: string } | undefined;
  return async () => {
    let key: string;
    try {
      const s = await stat(file);
      key = `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
    } catch {
      // Not built yet, or mid-rebuild: the next view looks again.
      return fallback;
    }
    if (cached?.key === key) return cached.text;
    try {
      cached = { key, text: await readFile(file, 'utf8') };
    } catch {
      return fallback;
    }
    return cached.text;
  };
}
