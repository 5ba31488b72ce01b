import type { ReplaceRule } from './rules.ts';
import { resolveText, type ConfigLookup } from './values.ts';

const ESCAPES: Record<string, string> = { t: '\t', n: '\n', r: '\r', f: '\f' };

/**
 * Backslashes at the end of a line, counted backwards (the regex this replaces rescanned the run
 * from every position: quadratic on a long run followed by another character).
 */
function trailingBackslashes(line: string): number {
  let n = 0;
  while (n < line.length && line[line.length - 1 - n] === '\\') n++;
  return n;
}

/** The logical lines of a properties file (continuations joined), comments and blanks dropped. */
function logicalLines(lines: readonly string[]): string[] {
  const out: string[] = [];
  let acc: string | null = null;
  for (const raw of lines) {
    const line: string = acc === null ? raw : raw.replace(/^[ \t\f]+/, '');
    if (acc === null && /^[ \t\f]*([#!]|$)/.test(line)) continue;
    if (trailingBackslashes(line) % 2 === 1) {
      // An odd number of trailing backslashes continues the line.
      acc = (acc ?? '') + line.slice(0, -1);
      continue;
    }
    out.push((acc ?? '') + line);
    acc = null;
  }
  if (acc !== null) out.push(acc);
  return out;
}

function unescape(s: string): string {
  return s.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_m, e: string) =>
    e.length === 5 ? String.fromCharCode(parseInt(e.slice(1), 16)) : (ESCAPES[e] ?? e),
  );
}

/** Key and raw value of one logical line: the key ends at the first unescaped `=`, `:` or blank. */
function splitEntry(line: string): [string, string] {
  const s = line.replace(/^[ \t\f]+/, '');
  let i = 0;
  while (i < s.length && !/[=: \t\f]/.test(s[i]!)) i += s[i] === '\\' ? 2 : 1;
  const key = s.slice(0, i);
  let rest = s.slice(i).replace(/^[ \t\f]+/, '');
  if (rest.startsWith('=') || rest.startsWith(':')) rest = rest.slice(1).replace(/^[ \t\f]+/, '');
  return [unescape(key), unescape(rest)];
}

/** Parse Java properties: entries in first-seen order (a repeated key keeps its first place, last value). */
export function parseProperties(text: string): { header: string[]; entries: Map<string, string> } {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const header: string[] = [];
  for (const l of lines) {
    if (!l.startsWith('#')) break;
    header.push(l);
  }
  const entries = new Map<string, string>();
  for (const l of logicalLines(lines.slice(header.length))) {
    const [k, v] = splitEntry(l);
    entries.set(k, v);
  }
  return { header, entries };
}

/**
 * Go's ASCII quoting (strconv.QuoteToASCII) without the quotes: `"` and `\` escaped, control
 * characters as `\n`, `\t`… or `\xNN`, everything beyond ASCII as `\uXXXX` (UTF-16 surrogate pairs
 * above U+FFFF, which Java reads back, where Go writes `\UXXXXXXXX`).
 */
export function escapeValue(s: string): string {
  const named: Record<string, string> = {
    '\x07': '\\a',
    '\b': '\\b',
    '\f': '\\f',
    '\n': '\\n',
    '\r': '\\r',
    '\t': '\\t',
    '\v': '\\v',
    '"': '\\"',
    '\\': '\\\\',
  };
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const code = s.charCodeAt(i);
    if (named[c]) out += named[c];
    else if (code < 0x20 || code === 0x7f) out += '\\x' + code.toString(16).padStart(2, '0');
    else if (code > 0x7e) out += '\\u' + code.toString(16).padStart(4, '0');
    else out += c;
  }
  return out;
}

/** A key as written back: separators and leading blanks escaped so it reads back the same. */
function escapeKey(k: string): string {
  return escapeValue(k).replace(/[=: #!]/g, (c) => '\\' + c);
}

/**
 * The `properties` parser (Wings protocol §6.5): leading `#` comment lines are kept, every rule sets
 * its key (added last when missing) unless `if_value` is set and the key is missing or holds another
 * value; the file is written back as `key=value` lines in the original order.
 */
export function rewriteProperties(text: string, rules: readonly ReplaceRule[], lookup: ConfigLookup): string {
  const { header, entries } = parseProperties(text);
  for (const r of rules) {
    if (r.ifValue !== '' && entries.get(r.match) !== r.ifValue) continue;
    entries.set(r.match, resolveText(r.replaceWith, lookup));
  }
  const lines = [...header, ...[...entries].map(([k, v]) => `${escapeKey(k)}=${escapeValue(v)}`)];
  return lines.map((l) => l + '\n').join('');
}
