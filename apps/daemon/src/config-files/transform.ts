import { rewritePlain } from './file.ts';
import { rewriteIni } from './ini.ts';
import { rewriteJson } from './json.ts';
import { rewriteProperties } from './properties.ts';
import type { ReplaceRule } from './rules.ts';
import { lookupIn, type ConfigValues } from './values.ts';
import { rewriteXml } from './xml.ts';
import { rewriteYaml } from './yaml.ts';

/** One file to rewrite: plain data, as it crosses to the parser worker. */
export interface TransformJob {
  parser: string;
  replace: ReplaceRule[];
  /** The file's text (byte-order mark removed; '' for a file that does not exist yet). */
  text: string;
  /** The `{{config.…}}` values an egg may read (values.ts EXPOSED_CONFIG_PATHS). */
  values: ConfigValues;
}

export type TransformResult =
  | { ok: true; text: string; ruleErrors: { match: string; message: string }[] }
  /** The file cannot be parsed (or a parser gave up): it stays as it is. */
  | { ok: false; message: string };

/** The new content of a file for its parser; unknown parsers leave it as it is. */
export function transform(job: TransformJob): TransformResult {
  const ruleErrors: { match: string; message: string }[] = [];
  const onRuleError = (rule: ReplaceRule, err: Error): void => {
    ruleErrors.push({ match: rule.match, message: err.message });
  };
  const lookup = lookupIn(job.values);
  const { text, replace } = job;
  try {
    switch (job.parser) {
      case 'file':
        return { ok: true, text: rewritePlain(text, replace), ruleErrors };
      case 'properties':
        return { ok: true, text: rewriteProperties(text, replace, lookup), ruleErrors };
      case 'ini':
        return { ok: true, text: rewriteIni(text, replace, lookup), ruleErrors };
      case 'yaml':
      case 'yml':
        return { ok: true, text: rewriteYaml(text, replace, lookup, onRuleError), ruleErrors };
      case 'json':
        return { ok: true, text: rewriteJson(text, replace, lookup, onRuleError), ruleErrors };
      case 'xml':
        return { ok: true, text: rewriteXml(text, replace, lookup, onRuleError), ruleErrors };
      default:
        return { ok: true, text, ruleErrors };
    }
  } catch (err) {
    // Also a stack overflow on a deeply nested document: a RangeError like any other.
    return { ok: false, message: (err as Error).message };
  }
}
