import type { Egg, EggVariable, Nest } from '../../db/types.ts';
import { atom, laravelJson } from '../../lib/time.ts';

/** The application API `nest` object (reference §5.1). */
export function nestAttributes(n: Nest) {
  return {
    id: n.id,
    uuid: n.uuid,
    author: n.author,
    name: n.name,
    description: n.description,
    created_at: atom(n.created_at),
    updated_at: atom(n.updated_at),
  };
}

const json = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** The application API `egg` object, with the deprecated single `docker_image` billing modules read. */
export function eggAttributes(e: Egg) {
  const images = json(e.docker_images) as Record<string, string> | null;
  return {
    id: e.id,
    uuid: e.uuid,
    name: e.name,
    nest: e.nest_id,
    author: e.author,
    description: e.description,
    docker_image: Object.values(images ?? {})[0] ?? '',
    docker_images: images ?? {},
    config: {
      files: json(e.config_files) ?? {},
      startup: json(e.config_startup),
      stop: e.config_stop,
      logs: json(e.config_logs),
      file_denylist: json(e.file_denylist) as string[] | null,
      extends: e.config_from,
    },
    startup: e.startup,
    script: {
      privileged: e.script_is_privileged === 1,
      install: e.script_install,
      entry: e.script_entry,
      container: e.script_container,
      extends: e.copy_script_from,
    },
    created_at: atom(e.created_at),
    updated_at: atom(e.updated_at),
  };
}

/**
 * The `config` include: only for an egg that copies its configuration from another one (else null),
 * each part its own or, where that is empty, the parent's.
 */
export function inheritedConfig(e: Egg, parent: Egg | undefined) {
  if (e.config_from === null || !parent) return null;
  const either = (own: string, inherited: string): unknown => json(own) ?? json(inherited);
  return {
    files: either(e.config_files, parent.config_files) ?? {},
    startup: either(e.config_startup, parent.config_startup),
    stop: e.config_stop ?? parent.config_stop,
    logs: either(e.config_logs, parent.config_logs),
  };
}

/** The `script` include: only for an egg that uses another one's install script (else null). */
export function inheritedScript(e: Egg, parent: Egg | undefined) {
  if (e.copy_script_from === null || !parent) return null;
  return {
    privileged: parent.script_is_privileged === 1,
    install: parent.script_install,
    entry: parent.script_entry,
    container: parent.script_container,
  };
}

/** An egg variable as the application API includes it (raw model fields). */
export function eggVariableAttributes(v: EggVariable) {
  return {
    id: v.id,
    egg_id: v.egg_id,
    name: v.name,
    description: v.description,
    env_variable: v.env_variable,
    default_value: v.default_value,
    user_viewable: v.user_viewable === 1,
    user_editable: v.user_editable === 1,
    rules: v.rules,
    created_at: laravelJson(v.created_at),
    updated_at: laravelJson(v.updated_at),
  };
}
