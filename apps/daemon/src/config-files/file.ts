import type { ReplaceRule } from './rules.ts';
import { valueText } from './values.ts';

/**
 * The `file` parser (Wings protocol §6.5): every line that starts with a rule's `match` is replaced
 * by that rule's raw `replace_with` text (several matching rules: their texts concatenated). Other
 * lines stay; every line ends with `\n`; no line is added. `{{config.…}}` is not resolved here.
 */
export function rewritePlain(text: string, rules: readonly ReplaceRule[]): string {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines
    .map((line) => {
      const hits = rules.filter((r) => line.startsWith(r.match));
      return (hits.length ? hits.map((r) => valueText(r.replaceWith)).join('') : line) + '\n';
    })
    .join('');
}
