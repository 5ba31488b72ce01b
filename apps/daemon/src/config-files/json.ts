import type { ReplaceRule } from './rules.ts';
import { editTree } from './tree.ts';
import type { ConfigLookup } from './values.ts';

/** The `json` parser (Wings protocol §6.5): dotted-path edits, written back indented with 4 spaces. */
export function rewriteJson(
  text: string,
  rules: readonly ReplaceRule[],
  lookup: ConfigLookup,
  onRuleError: (rule: ReplaceRule, err: Error) => void,
): string {
  const parsed: unknown = text.trim() === '' ? {} : JSON.parse(text);
  return JSON.stringify(editTree(parsed, rules, lookup, onRuleError), null, 4) + '\n';
}
