import { parse, stringify } from 'yaml';
import type { ReplaceRule } from './rules.ts';
import { editTree } from './tree.ts';
import type { ConfigLookup } from './values.ts';

/**
 * The `yaml` (and `yml`) parser (Wings protocol §6.5): the document is parsed into plain data,
 * edited with dotted paths and serialised again (comments and formatting are not kept; key order
 * is).
 */
export function rewriteYaml(
  text: string,
  rules: readonly ReplaceRule[],
  lookup: ConfigLookup,
  onRuleError: (rule: ReplaceRule, err: Error) => void,
): string {
  const parsed: unknown = text.trim() === '' ? {} : parse(text, { maxAliasCount: 100 });
  return stringify(editTree(parsed, rules, lookup, onRuleError), { lineWidth: 0 });
}
