/**
 * Writes a normalised egg as a PTDL_v2 file. Keys are emitted in one fixed order so exports diff
 * cleanly, and the config sections are JSON text, as every panel that imports PTDL_v2 expects.
 */
import type { NormalizedEgg } from './types.ts';

export interface ExportEggOptions {
  /** defaults to now */
  exportedAt?: Date;
}

const indent = (value: unknown) => JSON.stringify(value, null, 4);

export function exportEgg(egg: NormalizedEgg, options: ExportEggOptions = {}): Record<string, unknown> {
  const { done, stripAnsi } = egg.config.startup;
  const startup: Record<string, unknown> = { done: done.length === 1 ? done[0] : done };
  if (stripAnsi) startup.strip_ansi = true;
  return {
    _comment: 'Egg exported by Talon (PTDL_v2 format).',
    meta: { version: 'PTDL_v2', update_url: egg.updateUrl },
    exported_at: (options.exportedAt ?? new Date()).toISOString(),
    name: egg.name,
    author: egg.author,
    description: egg.description,
    features: [...egg.features],
    docker_images: Object.fromEntries(egg.dockerImages.map((d) => [d.label, d.image])),
    file_denylist: [...egg.fileDenylist],
    startup: egg.startup,
    config: {
      files: indent(egg.config.files),
      startup: indent(startup),
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
      rules: v.rules,
      field_type: v.fieldType,
    })),
  };
}
