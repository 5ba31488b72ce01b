import type { ReplaceRule } from './rules.ts';
import {
  compileGoRegex,
  regexReplace,
  resolveText,
  typedValue,
  valueText,
  type ConfigLookup,
} from './values.ts';

/**
 * Dotted-path edits of a parsed YAML/JSON document (Wings protocol §6.5), shared by both parsers:
 * `a.b.c` (missing objects created), `list[N]` / `list[N].key` (a missing array or element can only
 * be created at index 0), and one `*` wildcard (`prefix.*.rest` edits `rest` in every child of
 * `prefix` that has it).
 */
type Step = { key: string } | { index: number };
type Json = unknown;
type Container = Record<string, Json> | Json[];

const SEGMENT = /^([^[\]]*)((?:\[\d+\])*)$/;

export class PathError extends Error {}

export function parsePath(path: string): Step[] {
  const steps: Step[] = [];
  for (const seg of path.split('.')) {
    const m = SEGMENT.exec(seg);
    if (!m || (m[1] === '' && m[2] === '')) throw new PathError(`bad path segment "${seg}" in ${path}`);
    if (m[1] !== '') steps.push({ key: m[1]! });
    for (const idx of m[2]!.matchAll(/\[(\d+)\]/g)) steps.push({ index: Number(idx[1]) });
  }
  return steps;
}

function isContainer(v: Json): v is Container {
  return v !== null && typeof v === 'object';
}

function childOf(node: Json, step: Step): { exists: boolean; value: Json } {
  if ('key' in step) {
    if (isContainer(node) && !Array.isArray(node) && Object.hasOwn(node, step.key)) {
      return { exists: true, value: node[step.key] };
    }
  } else if (Array.isArray(node) && step.index < node.length) {
    return { exists: true, value: node[step.index] };
  }
  return { exists: false, value: undefined };
}

function lookup(node: Json, steps: readonly Step[]): { exists: boolean; value: Json } {
  let cur: { exists: boolean; value: Json } = { exists: true, value: node };
  for (const s of steps) {
    cur = childOf(cur.value, s);
    if (!cur.exists) return cur;
  }
  return cur;
}

/** A fresh container for what `next` addresses: an array for an index, else an object. */
function fresh(next: Step | undefined, value: Json): Json {
  if (!next) return value;
  return 'index' in next ? [] : {};
}

/** Set `value` at `steps` below `node` (a container), creating what is missing. */
function setIn(node: Container, steps: readonly Step[], value: Json): void {
  let cur: Json = node;
  steps.forEach((step, i) => {
    const last = i === steps.length - 1;
    const next = steps[i + 1];
    if ('key' in step) {
      if (!isContainer(cur) || Array.isArray(cur)) throw new PathError(`"${step.key}" is not in an object`);
      if (last) cur[step.key] = value;
      else if (!isContainer(cur[step.key])) cur[step.key] = fresh(next, value);
      cur = cur[step.key];
      return;
    }
    if (!Array.isArray(cur)) throw new PathError(`[${step.index}] is not in a list`);
    if (step.index >= cur.length) {
      if (step.index !== 0) throw new PathError(`list element [${step.index}] does not exist`);
      cur.push(last ? value : fresh(next, null));
    } else if (last) cur[step.index] = value;
    else if (!isContainer(cur[step.index])) cur[step.index] = fresh(next, null);
    cur = cur[step.index];
  });
}

/** What a rule writes at a place whose current content is `cur`, or `skip`. */
function decide(
  rule: ReplaceRule,
  cur: { exists: boolean; value: Json },
  lookupConfig: ConfigLookup,
): { skip: true } | { skip: false; value: Json } {
  const text = resolveText(rule.replaceWith, lookupConfig);
  if (rule.ifValue.startsWith('regex:') && rule.ifValue.length > 'regex:'.length) {
    // Intended behaviour (Wings' existence test is inverted): an existing scalar that matches is
    // replaced by the substitution, so `$1`, `$2` refer to the pattern's groups.
    if (!cur.exists || isContainer(cur.value)) return { skip: true };
    const re = compileGoRegex(rule.ifValue.slice('regex:'.length));
    const old = valueText(cur.value);
    re.lastIndex = 0;
    if (!re.test(old)) return { skip: true };
    return { skip: false, value: typedValue(rule.replaceWith, regexReplace(re, old, text)) };
  }
  // Intended behaviour (Wings compares the whole document): an existing key is changed only when
  // its current value is `if_value`; a missing key is created.
  if (rule.ifValue !== '' && cur.exists && valueText(cur.value) !== rule.ifValue) return { skip: true };
  return { skip: false, value: typedValue(rule.replaceWith, text) };
}

/** Apply one rule to `doc` in place. */
function applyRule(doc: Container, rule: ReplaceRule, lookupConfig: ConfigLookup): void {
  const segments = rule.match.split('.');
  const star = segments.indexOf('*');
  if (star < 0) {
    const steps = parsePath(rule.match);
    const d = decide(rule, lookup(doc, steps), lookupConfig);
    if (!d.skip) setIn(doc, steps, d.value);
    return;
  }
  if (segments.indexOf('*', star + 1) >= 0) throw new PathError(`more than one * in ${rule.match}`);
  const prefix = star === 0 ? [] : parsePath(segments.slice(0, star).join('.'));
  const rest = star === segments.length - 1 ? [] : parsePath(segments.slice(star + 1).join('.'));
  const parent = lookup(doc, prefix).value;
  if (!isContainer(parent)) return;
  const keys: Step[] = Array.isArray(parent)
    ? parent.map((_, index) => ({ index }))
    : Object.keys(parent).map((key) => ({ key }));
  for (const k of keys) {
    const path = [...prefix, k, ...rest];
    const cur = lookup(doc, path);
    if (!cur.exists) continue; // children without the path are skipped, never created
    const d = decide(rule, cur, lookupConfig);
    if (!d.skip) setIn(doc, path, d.value);
  }
}

/**
 * Apply every rule to a parsed document (null/undefined = an empty file: an object). Rules that
 * cannot apply (bad path, a list index that cannot be created, a bad regex) are reported through
 * `onRuleError` and skipped.
 */
export function editTree(
  parsed: Json,
  rules: readonly ReplaceRule[],
  lookupConfig: ConfigLookup,
  onRuleError: (rule: ReplaceRule, err: Error) => void,
): Container {
  if (parsed !== null && parsed !== undefined && !isContainer(parsed)) {
    throw new PathError('the document is not an object or a list');
  }
  let doc: Container = isContainer(parsed) ? parsed : {};
  for (const rule of rules) {
    // Each rule edits a copy, so one that fails half-way leaves nothing behind.
    const draft = structuredClone(doc);
    try {
      applyRule(draft, rule, lookupConfig);
      doc = draft;
    } catch (err) {
      onRuleError(rule, err as Error);
    }
  }
  return doc;
}
