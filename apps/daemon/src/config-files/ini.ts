import type { ReplaceRule } from './rules.ts';
import { resolveText, type ConfigLookup } from './values.ts';

const SECTION = /^\s*\[(.*)\]\s*(?:[;#].*)?$/;
const COMMENT = /^\s*[;#]/;
/** key, delimiter (with its blanks), value, line ending remainder. */
const ENTRY = /^(\s*)([^=:]*?)(\s*[=:]\s*)(.*?)(\r?)$/;

/**
 * `section.key` split at the first `.` outside square brackets (further dots belong to the key); a
 * bracketed section (`[/Script/Engine.GameSession].MaxPlayers`) loses its brackets. No dot: the
 * default section (keys before the first header).
 */
export function splitIniMatch(match: string): { section: string; key: string } {
  let depth = 0;
  for (let i = 0; i < match.length; i++) {
    const c = match[i];
    if (c === '[') depth++;
    else if (c === ']') depth = Math.max(0, depth - 1);
    else if (c === '.' && depth === 0) {
      let section = match.slice(0, i);
      if (/^\[.*\]$/.test(section)) section = section.slice(1, -1);
      return { section, key: match.slice(i + 1) };
    }
  }
  return { section: '', key: match };
}

interface Range {
  /** Index of the header line, -1 for the default section. */
  header: number;
  start: number;
  end: number;
}

function sections(lines: readonly string[]): Map<string, Range[]> {
  const out = new Map<string, Range[]>();
  let current: Range = { header: -1, start: 0, end: lines.length };
  let name = '';
  const push = (): void => {
    out.set(name, [...(out.get(name) ?? []), current]);
  };
  lines.forEach((line, i) => {
    const m = SECTION.exec(line);
    if (!m) return;
    current.end = i;
    push();
    name = m[1]!.trim();
    current = { header: i, start: i + 1, end: lines.length };
  });
  push();
  return out;
}

/**
 * The `ini` parser (Wings protocol §6.5): each rule sets `key` in `section`, creating the section or
 * key when missing; `if_value` is ignored. The file is edited line by line: comments, order and
 * spacing of everything else stay as they were, a changed key keeps its delimiter.
 */
export function rewriteIni(text: string, rules: readonly ReplaceRule[], lookup: ConfigLookup): string {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const sample = lines.find((l) => !COMMENT.test(l) && !SECTION.test(l) && ENTRY.test(l));
  const delimiter = sample && !/\s[=:]/.test(ENTRY.exec(sample)![3]!) ? '=' : ' = ';
  for (const rule of rules) {
    const { section, key } = splitIniMatch(rule.match);
    const value = resolveText(rule.replaceWith, lookup);
    const ranges = sections(lines).get(section);
    let done = false;
    for (const r of ranges ?? []) {
      for (let i = r.start; i < r.end; i++) {
        const m = COMMENT.test(lines[i]!) ? null : ENTRY.exec(lines[i]!);
        if (m?.[2] !== key) continue;
        lines[i] = `${m[1]}${m[2]}${m[3]}${value}${m[5]}`;
        done = true;
      }
    }
    if (done) continue;
    const entry = `${key}${delimiter}${value}`;
    const r = ranges?.[0];
    if (r) {
      let at = r.end;
      while (at > r.start && lines[at - 1]!.trim() === '') at--;
      lines.splice(at, 0, entry);
    } else {
      if (lines.length && lines.at(-1)!.trim() !== '') lines.push('');
      lines.push(`[${section}]`, entry);
    }
  }
  return lines.map((l) => l + '\n').join('');
}
