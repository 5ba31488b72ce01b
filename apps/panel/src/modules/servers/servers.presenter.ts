import { can } from '@talon/shared';
import type { Allocation, EggVariable } from '../../db/types.ts';
import type { ServerAccess } from './server-access.ts';
import { variableEnvironment } from './server-config.ts';
import type { ServerBundle } from './servers.repository.ts';

/** The client API `allocation` object (reference §3.1). */
export function clientAllocationAttributes(a: Allocation, primaryId: number, withNotes = true) {
  return {
    id: a.id,
    ip: a.ip,
    ip_alias: a.ip_alias,
    port: a.port,
    notes: withNotes ? a.notes : null,
    is_default: a.id === primaryId,
  };
}

/** The startup command as the caller may see it: hidden values and all of them without startup.read. */
export function invocation(b: ServerBundle, permissions: string[]): string {
  const primary = b.allocations.find((a) => a.id === b.server.allocation_id);
  const readable = can(permissions, 'startup.read');
  const env = variableEnvironment(b);
  const viewable = new Set(
    b.variables.filter((v) => v.variable.user_viewable === 1).map((v) => v.variable.env_variable),
  );
  const builtins: Record<string, string> = {
    SERVER_MEMORY: String(b.server.memory),
    SERVER_IP: primary?.ip ?? '',
    SERVER_PORT: String(primary?.port ?? ''),
  };
  return b.server.startup.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/gu, (whole, name: string) => {
    if (name in builtins) return builtins[name] ?? '';
    if (!(name in env)) return whole;
    return readable && viewable.has(name) ? (env[name] ?? '') : '[hidden]';
  });
}

/** The client API `egg_variable` object (reference §3.1); only ever built for user-viewable variables. */
export function eggVariableAttributes(variable: EggVariable, value: string | null) {
  return {
    name: variable.name,
    description: variable.description,
    env_variable: variable.env_variable,
    default_value: variable.default_value,
    server_value: value,
    is_editable: variable.user_editable === 1,
    rules: variable.rules,
  };
}

/** The client API `server` object with its default relationships (reference §3.1). */
export function clientServerAttributes(b: ServerBundle, access: ServerAccess) {
  const { server, node, egg } = b;
  const perms = access.permissions;
  const primaryId = server.allocation_id;
  const allocations = can(perms, 'allocation.read')
    ? b.allocations.map((a) => clientAllocationAttributes(a, primaryId))
    : b.allocations
        .filter((a) => a.id === primaryId)
        .map((a) => clientAllocationAttributes(a, primaryId, false));
  const features = JSON.parse(egg.features) as string[] | null;
  return {
    server_owner: access.isOwner,
    identifier: server.uuid_short,
    internal_id: server.id,
    uuid: server.uuid,
    name: server.name,
    node: node.name,
    is_node_under_maintenance: node.maintenance_mode === 1,
    sftp_details: { ip: node.fqdn, port: node.daemon_sftp },
    description: server.description,
    limits: {
      memory: server.memory,
      swap: server.swap,
      disk: server.disk,
      io: server.io,
      cpu: server.cpu,
      threads: server.threads,
      oom_disabled: server.oom_disabled === 1,
    },
    invocation: invocation(b, perms),
    docker_image: server.image,
    egg_features: features,
    feature_limits: {
      databases: server.database_limit,
      allocations: server.allocation_limit,
      backups: server.backup_limit,
    },
    status: server.status,
    is_suspended: server.status === 'suspended',
    is_installing: server.status === 'installing' || server.status === 'install_failed',
    is_transferring: false,
    relationships: {
      allocations: {
        object: 'list',
        data: allocations.map((attributes) => ({ object: 'allocation', attributes })),
      },
      variables: can(perms, 'startup.read')
        ? {
            object: 'list',
            data: b.variables
              .filter((v) => v.variable.user_viewable === 1)
              .map(({ variable, value }) => ({
                object: 'egg_variable',
                attributes: eggVariableAttributes(variable, value),
              })),
          }
        : { object: 'null_resource', attributes: null },
    },
  };
}
