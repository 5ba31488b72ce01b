/**
 * The `process_configuration.configs` entries of a server configuration document (Wings protocol
 * §6.3): which file, which parser, which replacements. The panel sends them as loose JSON; this is
 * the one place that reads them.
 */
export interface ReplaceRule {
  match: string;
  /** Absent or '' = unconditional. */
  ifValue: string;
  /** The raw JSON value of `replace_with` (or the legacy `value`), type kept (strings, booleans…). */
  replaceWith: unknown;
}

export interface ConfigFileSpec {
  file: string;
  parser: string;
  replace: ReplaceRule[];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The well-formed entries of `configs`; malformed ones are returned as `skipped` descriptions. */
export function readConfigSpecs(configs: readonly unknown[]): { specs: ConfigFileSpec[]; skipped: string[] } {
  const specs: ConfigFileSpec[] = [];
  const skipped: string[] = [];
  configs.forEach((entry, i) => {
    if (!isObject(entry) || typeof entry.file !== 'string' || entry.file === '') {
      skipped.push(`configs[${i}] has no file`);
      return;
    }
    const replace: ReplaceRule[] = [];
    for (const r of Array.isArray(entry.replace) ? entry.replace : []) {
      if (!isObject(r) || typeof r.match !== 'string' || r.match === '') continue;
      replace.push({
        match: r.match,
        ifValue: typeof r.if_value === 'string' ? r.if_value : '',
        replaceWith: 'replace_with' in r ? r.replace_with : r.value,
      });
    }
    specs.push({ file: entry.file, parser: typeof entry.parser === 'string' ? entry.parser : '', replace });
  });
  return { specs, skipped };
}
