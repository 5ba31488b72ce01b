/**
 * The one in-memory shape of an egg (server template), whatever file format it came from. PTDL_v1 and
 * PTDL_v2 files both normalise to it; `exportEgg` writes it back as PTDL_v2. JSON-in-string sections
 * of the file (`config.files`, `config.startup`, `config.logs`) are decoded here, so consumers never
 * parse JSON text again.
 */

export const EGG_FORMATS = ['PTDL_v1', 'PTDL_v2'] as const;
export type EggFormat = (typeof EGG_FORMATS)[number];

/** Config-file parsers the daemon knows (reference §6.5); the names are case-sensitive. */
export const EGG_CONFIG_PARSERS = ['file', 'yaml', 'yml', 'properties', 'ini', 'json', 'xml'] as const;
export type EggConfigParser = (typeof EGG_CONFIG_PARSERS)[number];

/** A replacement is kept as the JSON value the file had: the daemon remembers its type. */
export type EggReplaceValue = string | number | boolean | null;

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface EggConfigFile {
  parser: EggConfigParser;
  /** match → replacement, or match → { if_value → replacement } */
  find: Record<string, EggReplaceValue | Record<string, EggReplaceValue>>;
}

export interface EggDockerImage {
  /** display name; PTDL_v1 files have none, so the image itself is used */
  label: string;
  image: string;
}

export interface EggVariable {
  name: string;
  description: string;
  envVariable: string;
  defaultValue: string;
  userViewable: boolean;
  userEditable: boolean;
  /** Laravel rule string as in the file, e.g. `required|integer|between:1,100` */
  rules: string;
  fieldType: 'text';
}

export interface NormalizedEgg {
  name: string;
  author: string;
  description: string;
  updateUrl: string | null;
  features: string[];
  /** in file order; the first one is the default image */
  dockerImages: EggDockerImage[];
  fileDenylist: string[];
  /** startup command template with `{{ENV_NAME}}` placeholders */
  startup: string;
  config: {
    /** keyed by path relative to the server root */
    files: Record<string, EggConfigFile>;
    /** `done`: console substrings (or `regex:` patterns) that mark the server as running */
    startup: { done: string[]; stripAnsi: boolean };
    logs: Record<string, JsonValue>;
    /** a console command, or `^SIGNAL` (`^C` = SIGINT) */
    stop: string;
  };
  install: { script: string; container: string; entrypoint: string };
  variables: EggVariable[];
}

export interface EggError {
  /** JSON path into the egg file, e.g. `variables[2].env_variable`; '' for the whole file */
  path: string;
  message: string;
}

export type ParseEggResult =
  { ok: true; egg: NormalizedEgg; format: EggFormat } | { ok: false; errors: EggError[] };
