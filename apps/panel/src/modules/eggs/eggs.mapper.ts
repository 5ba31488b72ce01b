import type { EggStartupCommand, NormalizedEgg } from '@talon/shared';
import type { Egg, EggVariable } from '../../db/types.ts';

/** NormalizedEgg → the columns of `eggs` (JSON sections stored as text, in the Wings shapes). */
export function eggColumns(egg: NormalizedEgg) {
  return {
    author: egg.author,
    name: egg.name,
    description: egg.description,
    features: JSON.stringify(egg.features),
    docker_images: JSON.stringify(Object.fromEntries(egg.dockerImages.map((d) => [d.label, d.image]))),
    file_denylist: JSON.stringify(egg.fileDenylist),
    update_url: egg.updateUrl,
    config_files: JSON.stringify(egg.config.files),
    config_startup: JSON.stringify({
      ...egg.config.startup.extra,
      done: egg.config.startup.done,
      strip_ansi: egg.config.startup.stripAnsi,
    }),
    config_logs: JSON.stringify(egg.config.logs),
    config_stop: egg.config.stop,
    config_from: null,
    startup: egg.startup,
    script_container: egg.install.container,
    script_entry: egg.install.entrypoint,
    script_is_privileged: 1,
    script_install: egg.install.script,
    copy_script_from: null,
    startup_commands: JSON.stringify(egg.startupCommands),
    tags: JSON.stringify(egg.tags),
  };
}

/** The egg's named start-up commands; eggs stored before migration 0009 have only `startup`. */
export function startupCommandsOf(row: Pick<Egg, 'startup' | 'startup_commands'>): EggStartupCommand[] {
  const stored = row.startup_commands ? (JSON.parse(row.startup_commands) as EggStartupCommand[]) : [];
  return stored.length ? stored : [{ name: 'Default', command: row.startup }];
}

export function variableColumns(egg: NormalizedEgg, at: string) {
  return egg.variables.map((v) => ({
    name: v.name,
    description: v.description,
    env_variable: v.envVariable,
    default_value: v.defaultValue,
    user_viewable: v.userViewable ? 1 : 0,
    user_editable: v.userEditable ? 1 : 0,
    rules: v.rules,
    sort: v.sort,
    created_at: at,
    updated_at: at,
  }));
}

/** Stored rows → NormalizedEgg, for export. */
export function toNormalizedEgg(row: Egg, variables: EggVariable[]): NormalizedEgg {
  const {
    done,
    strip_ansi: stripAnsi,
    ...extra
  } = JSON.parse(row.config_startup) as { done?: string[]; strip_ansi?: boolean } & NonNullable<
    NormalizedEgg['config']['startup']['extra']
  >;
  const images = JSON.parse(row.docker_images) as Record<string, string>;
  return {
    uuid: row.uuid,
    tags: row.tags ? (JSON.parse(row.tags) as string[]) : [],
    name: row.name,
    author: row.author,
    description: row.description ?? '',
    updateUrl: row.update_url,
    features: JSON.parse(row.features) as string[],
    dockerImages: Object.entries(images).map(([label, image]) => ({ label, image })),
    fileDenylist: JSON.parse(row.file_denylist) as string[],
    startup: row.startup,
    startupCommands: startupCommandsOf(row),
    config: {
      files: JSON.parse(row.config_files) as NormalizedEgg['config']['files'],
      startup: {
        done: done ?? [],
        stripAnsi: stripAnsi ?? false,
        ...(Object.keys(extra).length ? { extra } : {}),
      },
      logs: JSON.parse(row.config_logs) as NormalizedEgg['config']['logs'],
      stop: row.config_stop ?? '^C',
    },
    install: {
      script: row.script_install ?? '',
      container: row.script_container,
      entrypoint: row.script_entry,
    },
    variables: variables.map((v) => ({
      name: v.name,
      description: v.description,
      envVariable: v.env_variable,
      defaultValue: v.default_value,
      userViewable: v.user_viewable === 1,
      userEditable: v.user_editable === 1,
      rules: v.rules,
      fieldType: 'text' as const,
      sort: v.sort,
    })),
  };
}
