/**
 * Writes a normalised egg as a PTDL_v2 file (what the incumbent reads; the default) or as Pelican's
 * PLCN_v3. Keys are emitted in one fixed order so exports diff cleanly, and the config sections
 * are JSON text, as both panels write them in JSON exports. The install script is written byte for
 * byte as it was imported (CRLF included).
 */
import { splitVariableRules } from './variable-rules.ts';
import type { NormalizedEgg } from './types.ts';

export const EGG_EXPORT_FORMATS = ['PTDL_v2', 'PLCN_v3'] as const;
export type EggExportFormat = (typeof EGG_EXPORT_FORMATS)[number];

export interface ExportEggOptions {
  /** defaults to now */
  exportedAt?: Date;
  /** defaults to PTDL_v2 */
  format?: EggExportFormat;
}

const indent = (value: unknown) => JSON.stringify(value, null, 4);

function startupSection(egg: NormalizedEgg): string {
  const { done, stripAnsi, extra } = egg.config.startup;
  const startup: Record<string, unknown> = { done: done.length === 1 ? done[0] : done };
  if (stripAnsi) startup.strip_ansi = true;
  return indent({ ...startup, ...extra });
}

export function exportEgg(egg: NormalizedEgg, options: ExportEggOptions = {}): Record<string, unknown> {
  const pelican = options.format === 'PLCN_v3';
  const commands = Object.fromEntries(egg.startupCommands.map((c) => [c.name, c.command]));
  // PTDL_v2 has one command; the others, the uuid, tags and sort are extra keys the incumbent
  // ignores and this panel reads back, so a round trip loses nothing.
  const startup = pelican
    ? { startup_commands: commands }
    : {
        startup: egg.startup,
        ...(egg.startupCommands.length > 1 ? { startup_commands: commands } : {}),
      };
  const identity = egg.uuid || pelican ? { uuid: egg.uuid } : {};
  const tags = egg.tags.length || pelican ? { tags: [...egg.tags] } : {};
  return {
    _comment: `Egg exported by Talon (${pelican ? 'PLCN_v3' : 'PTDL_v2'} format).`,
    meta: { version: pelican ? 'PLCN_v3' : 'PTDL_v2', update_url: egg.updateUrl },
    exported_at: (options.exportedAt ?? new Date()).toISOString(),
    name: egg.name,
    author: egg.author,
    ...identity,
    description: egg.description,
    ...tags,
    features: [...egg.features],
    docker_images: Object.fromEntries(egg.dockerImages.map((d) => [d.label, d.image])),
    file_denylist: [...egg.fileDenylist],
    ...startup,
    config: {
      files: indent(egg.config.files),
      startup: startupSection(egg),
      logs: indent(egg.config.logs),
      stop: egg.config.stop,
    },
    scripts: {
      installation: {
        script: egg.install.script,
        container: egg.install.container,
        entrypoint: egg.install.entrypoint,
      },
    },
    variables: egg.variables.map((v) => ({
      name: v.name,
      description: v.description,
      env_variable: v.envVariable,
      default_value: v.defaultValue,
      user_viewable: v.userViewable,
      user_editable: v.userEditable,
      rules: pelican ? splitVariableRules(v.rules).filter((r) => r !== '') : v.rules,
      ...(pelican ? {} : { field_type: v.fieldType }),
      ...(v.sort !== null || pelican ? { sort: v.sort } : {}),
    })),
  };
}
