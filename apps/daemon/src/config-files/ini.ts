import type { ReplaceRule } from './rules.ts';
import { resolveText, type ConfigLookup } from './values.ts';

const COMMENT = /^\s*[;#]/;

/** A `key = value` line in parts: leading blanks, key, delimiter with its blanks, value, `\r`. */
interface Entry {
  indent: string;
  key: string;
  delimiter: string;
  value: string;
  cr: string;
}

const isBlank = (c: string): boolean => /\s/.test(c);

/**
 * The name of a `[section]` header line, or null: from the first `[` to the last `]` followed only
 * by blanks or by a `;`/`#` comment. One backward scan (the regex this replaces backtracked
 * quadratically over a line of `];` pairs ending in `\r`).
 */
function sectionName(line: string): string | null {
  let start = 0;
  while (start < line.length && isBlank(line[start]!)) start++;
  if (line[start] !== '[') return null;
  let next = ''; // the first non-blank character after position i
  for (let i = line.length - 1; i > start; i--) {
    const c = line[i]!;
    if (c === ']' && (next === '' || next === ';' || next === '#')) return line.slice(start + 1, i);
    if (!isBlank(c)) next = c;
  }
  return null;
}

/**
 * One scan of the line (the regex this replaces backtracked cubically over a line of blanks
 * without a delimiter): the key runs to the first `=` or `:`, without the blanks around it.
 */
function parseEntry(line: string): Entry | null {
  const at = line.search(/[=:]/);
  if (at < 0) return null;
  let start = 0;
  while (start < at && isBlank(line[start]!)) start++;
  let keyEnd = at;
  while (keyEnd > start && isBlank(line[keyEnd - 1]!)) keyEnd--;
  let valueStart = at + 1;
  while (valueStart < line.length && isBlank(line[valueStart]!)) valueStart++;
  const cr = line.endsWith('\r') && valueStart < line.length ? '\r' : '';
  return {
    indent: line.slice(0, start),
    key: line.slice(start, keyEnd),
    delimiter: line.slice(keyEnd, valueStart),
    value: line.slice(valueStart, line.length - cr.length),
    cr,
  };
}

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
    const header = sectionName(line);
    if (header === null) return;
    current.end = i;
    push();
    name = header.trim();
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
  const sample = lines.find((l) => !COMMENT.test(l) && sectionName(l) === null && parseEntry(l) !== null);
  const delimiter = sample && !isBlank(parseEntry(sample)!.delimiter[0]!) ? '=' : ' = ';
  for (const rule of rules) {
    const { section, key } = splitIniMatch(rule.match);
    const value = resolveText(rule.replaceWith, lookup);
    const ranges = sections(lines).get(section);
    let done = false;
    for (const r of ranges ?? []) {
      for (let i = r.start; i < r.end; i++) {
        const e = COMMENT.test(lines[i]!) ? null : parseEntry(lines[i]!);
        if (e?.key !== key) continue;
        lines[i] = `${e.indent}${e.key}${e.delimiter}${value}${e.cr}`;
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
