import { isDeepStrictEqual } from 'node:util';
import { parseDocument, type Document } from 'yaml';
import type { ReplaceRule } from './rules.ts';
import { editTree } from './tree.ts';
import type { ConfigLookup } from './values.ts';

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Write into `doc` what differs between `before` and `after` (edits only add or change, never remove). */
function applyChanges(doc: Document, path: (string | number)[], before: unknown, after: unknown): void {
  if (isPlainObject(before) && isPlainObject(after)) {
    for (const [k, v] of Object.entries(after)) {
      if (Object.hasOwn(before, k)) applyChanges(doc, [...path, k], before[k], v);
      else doc.setIn([...path, k], v);
    }
  } else if (Array.isArray(before) && Array.isArray(after)) {
    after.forEach((v, i) => {
      if (i < before.length) applyChanges(doc, [...path, i], before[i], v);
      else doc.addIn(path, v);
    });
  } else if (!isDeepStrictEqual(before, after)) {
    if (path.length === 0) doc.contents = doc.createNode(after);
    else doc.setIn(path, after);
  }
}

/**
 * The `yaml` (and `yml`) parser (Wings protocol §6.5): the document is read as plain data, edited
 * with dotted paths, and only the values that changed are written back into the parsed document, so
 * comments, quoting and the layout of everything else survive (Wings re-serialises and loses them).
 */
export function rewriteYaml(
  text: string,
  rules: readonly ReplaceRule[],
  lookup: ConfigLookup,
  onRuleError: (rule: ReplaceRule, err: Error) => void,
): string {
  // uniqueKeys: the library's duplicate-key check compares every key with every other one of its
  // mapping (quadratic: 60,000 keys took over a minute); a repeated key is read as its last value.
  const doc = parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length > 0) throw doc.errors[0]!;
  const before: unknown = doc.toJS({ maxAliasCount: 100 });
  const after = editTree(structuredClone(before ?? {}), rules, lookup, onRuleError);
  applyChanges(doc, [], before ?? null, after);
  return doc.toString({ lineWidth: 0 });
}
