/**
 * The one in-memory shape of an egg (server template), whatever file format it came from. PTDL_v1 and
 * PTDL_v2 files both normalise to it; `exportEgg` writes it back as PTDL_v2. JSON-in-string sections
 * of the file (`config.files`, `config.startup`, `config.logs`) are decoded here, so consumers never
 * parse JSON text again.
 */

export const EGG_FORMATS = ['PTDL_v1', 'PTDL_v2', 'PLCN_v1', 'PLCN_v2', 'PLCN_v3'] as const;
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
  /** Pelican's display position (lower first); null when the file gives none */
  sort: number | null;
}

/** One named start-up command; PTDL files have one, PLCN_v3 files a map of them. */
export interface EggStartupCommand {
  name: string;
  command: string;
}

/** Something the importer accepted but changed or could not check: shown to the operator. */
export interface EggWarning {
  path: string;
  message: string;
}

export interface NormalizedEgg {
  /** the file's own uuid (Pelican); an import with the same uuid updates that egg */
  uuid: string | null;
  tags: string[];
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
  /** every start-up command in file order; the first is the default and equals `startup` */
  startupCommands: EggStartupCommand[];
  config: {
    /** keyed by path relative to the server root */
    files: Record<string, EggConfigFile>;
    /** `done`: console substrings (or `regex:` patterns) that mark the server as running */
    /** `extra`: keys Wings ignores (`userInteraction`…), kept so they survive a round trip */
    startup: { done: string[]; stripAnsi: boolean; extra?: Record<string, JsonValue> };
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
  | { ok: true; egg: NormalizedEgg; format: EggFormat; warnings: EggWarning[] }
  | { ok: false; errors: EggError[] };
