import {
  placeholderValuesOf,
  resolvePlaceholders,
  type ProcessConfiguration,
  type ServerSettings,
} from '@talon/shared';
import type { ServerBundle } from './servers.repository.ts';

/** Each egg variable's value for this server (its own, else the egg's default), by env name. */
export function variableEnvironment(b: ServerBundle): Record<string, string> {
  return Object.fromEntries(
    b.variables.map(({ variable, value }) => [variable.env_variable, value ?? variable.default_value]),
  );
}

function primary(b: ServerBundle) {
  return b.allocations.find((a) => a.id === b.server.allocation_id) ?? b.allocations[0];
}

/** The `settings` part of the server configuration document (Wings protocol §6.1). */
export function serverSettings(b: ServerBundle): ServerSettings {
  const { server, egg, location } = b;
  const main = primary(b);
  const mappings: Record<string, number[]> = {};
  for (const a of b.allocations) (mappings[a.ip] ??= []).push(a.port);
  return {
    uuid: server.uuid,
    meta: { name: server.name, description: server.description },
    suspended: server.status === 'suspended',
    environment: {
      ...variableEnvironment(b),
      STARTUP: server.startup,
      P_SERVER_LOCATION: location.short,
      P_SERVER_UUID: server.uuid,
      P_SERVER_ALLOCATION_LIMIT: server.allocation_limit,
    },
    invocation: server.startup,
    skip_egg_scripts: server.skip_scripts === 1,
    build: {
      memory_limit: server.memory,
      swap: server.swap,
      io_weight: server.io,
      cpu_limit: server.cpu,
      threads: server.threads,
      disk_space: server.disk,
      oom_disabled: server.oom_disabled === 1,
    },
    container: { image: server.image, oom_disabled: server.oom_disabled === 1, requires_rebuild: false },
    allocations: {
      force_outgoing_ip: false,
      default: { ip: main?.ip ?? '0.0.0.0', port: main?.port ?? 0 },
      mappings,
    },
    mounts: [],
    egg: { id: egg.uuid, file_denylist: JSON.parse(egg.file_denylist) as string[] },
  };
}

interface ReplaceRule {
  match: string;
  if_value?: string;
  replace_with: unknown;
}

/** The `process_configuration` part (Wings protocol §6.3): done strings, stop, config-file rewrites. */
export function processConfiguration(b: ServerBundle): ProcessConfiguration {
  const { egg } = b;
  const startup = JSON.parse(egg.config_startup) as { done?: string | string[]; strip_ansi?: boolean };
  const done = startup.done === undefined ? [] : [startup.done].flat();
  const stopValue = egg.config_stop ?? '^C';
  const stop = stopValue.startsWith('^')
    ? { type: 'signal', value: stopValue.slice(1).toUpperCase() }
    : { type: 'command', value: stopValue };
  const files = JSON.parse(egg.config_files) as Record<
    string,
    { parser: string; find?: Record<string, unknown> }
  >;
  const resolve = placeholderResolver(b);
  const configs = Object.entries(files)
    .filter(([, entry]) => entry.find && typeof entry.find === 'object')
    .map(([file, { find, ...rest }]) => {
      const replace: ReplaceRule[] = [];
      for (const [match, value] of Object.entries(find ?? {})) {
        if (value !== null && typeof value === 'object') {
          for (const [ifValue, replacement] of Object.entries(value)) {
            replace.push({ match, if_value: ifValue, replace_with: resolve(replacement) });
          }
        } else {
          replace.push({ match, replace_with: resolve(value) });
        }
      }
      return { ...rest, file, replace };
    });
  return {
    startup: { done, user_interaction: [], strip_ansi: startup.strip_ansi ?? false },
    stop,
    configs,
  };
}

/**
 * Resolves the egg placeholders of config values, in the incumbent's spelling
 * (`{{server.build.default.port}}`, `{{env.X}}`) and Pelican's (`{{server.allocations.default.port}}`,
 * `{{server.environment.X}}`), with the one table in @talon/shared; `{{config.…}}` is the daemon's to
 * resolve and is left alone. Unknown paths become '' as in the incumbent (the import warned).
 */
function placeholderResolver(b: ServerBundle) {
  const values = placeholderValuesOf(serverSettings(b));
  return (value: unknown): unknown => {
    if (typeof value !== 'string') return value;
    return resolvePlaceholders(
      value.replace(/\{\{\s*config\.docker\.interface\s*\}\}/gu, '{{config.docker.network.interface}}'),
      values,
    );
  };
}
