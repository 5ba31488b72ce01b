/**
 * The egg's `file_denylist` (protocol §8.8), gitignore syntax: `#` comments, `!` negation, `*`,
 * `**`, `?`, `[...]`, a leading `/` anchors to the server root, a trailing `/` matches a directory
 * and everything below it, a pattern without `/` matches a name at any depth. A pattern that
 * matches a directory also matches everything below it. The last matching pattern decides (so a
 * later `!pattern` can allow a file an earlier pattern denied). Paths are the jail's cleaned
 * components, so `a/../name` cannot sidestep an anchored pattern.
 */
interface Rule {
  negate: boolean;
  dirOnly: boolean;
  re: RegExp;
}

function escapeRe(ch: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(ch) ? `\\${ch}` : ch;
}

/** Glob (already stripped of `!`, leading and trailing `/`) → regex source for one whole path. */
function globToRe(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '\\' && i + 1 < glob.length) {
      out += escapeRe(glob[++i]!);
    } else if (ch === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        const atEnd = i + 2 === glob.length;
        if (atStart && glob[i + 2] === '/') {
          out += '(?:.*/)?'; // `**/` : zero or more directories
          i += 2;
        } else if (atStart && atEnd) {
          out += '.*'; // trailing `/**`: everything below
          i += 1;
        } else {
          out += '[^/]*'; // `**` inside a name is just `*`
          i += 1;
        }
      } else {
        out += '[^/]*';
      }
    } else if (ch === '?') {
      out += '[^/]';
    } else if (ch === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) {
        out += '\\[';
      } else {
        let body = glob.slice(i + 1, close);
        if (body.startsWith('!')) body = '^' + body.slice(1);
        out += `[${body.replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else {
      out += escapeRe(ch);
    }
  }
  return out;
}

function compileLine(raw: string): Rule | null {
  // Trailing spaces are ignored unless escaped.
  let line = raw.replace(/(?<!\\)\s+$/, '');
  if (line === '' || line.startsWith('#')) return null;
  let negate = false;
  if (line.startsWith('!')) {
    negate = true;
    line = line.slice(1);
  } else if (line.startsWith('\\!') || line.startsWith('\\#')) {
    line = line.slice(1);
  }
  let dirOnly = false;
  if (line.endsWith('/')) {
    dirOnly = true;
    line = line.replace(/\/+$/, '');
  }
  const anchored = line.includes('/');
  line = line.replace(/^\/+/, '');
  if (line === '') return null;
  const body = globToRe(line);
  const re = new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`);
  return { negate, dirOnly, re };
}

export class FileDenylist {
  private readonly rules: Rule[];

  constructor(patterns: readonly string[]) {
    this.rules = patterns.flatMap((p) => p.split('\n')).flatMap((l) => compileLine(l) ?? []);
  }

  get empty(): boolean {
    return this.rules.length === 0;
  }

  /** Whether the path (cleaned components, `[]` = root) is denied. `isDir`: the path itself is a directory. */
  denies(parts: readonly string[], isDir = false): boolean {
    if (parts.length === 0) return false;
    // The path itself and each directory above it; a rule matching any of them applies.
    const candidates: { p: string; dir: boolean }[] = [];
    for (let i = 1; i <= parts.length; i++) {
      candidates.push({ p: parts.slice(0, i).join('/'), dir: i < parts.length || isDir });
    }
    let denied = false;
    for (const r of this.rules) {
      if (candidates.some((c) => (c.dir || !r.dirOnly) && r.re.test(c.p))) denied = !r.negate;
    }
    return denied;
  }
}

const cache = new WeakMap<readonly string[], FileDenylist>();

/** The compiled denylist of a server's current configuration (compiled once per configuration). */
export function denylistFor(patterns: readonly string[] | undefined): FileDenylist {
  if (!patterns) return new FileDenylist([]);
  let d = cache.get(patterns);
  if (!d) {
    d = new FileDenylist(patterns);
    cache.set(patterns, d);
  }
  return d;
}
