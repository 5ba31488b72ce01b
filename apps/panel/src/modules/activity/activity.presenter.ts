import { createHash } from 'node:crypto';
import type { ActivityLog, User } from '../../db/types.ts';
import { atom } from '../../lib/time.ts';
import { clientUserAttributes } from '../users/users.presenter.ts';

const PLAIN_KEYS = new Set(['ip', 'useragent', 'using_sftp']);

/** The `activity_log` schema (reference §3.1), as seen by `viewer`. */
export function activityAttributes(
  row: ActivityLog,
  viewer: User,
  actor: User | undefined,
  withActor: boolean,
) {
  const isActor = row.actor_id === viewer.id;
  const raw = JSON.parse(row.properties) as Record<string, unknown>;
  const properties: Record<string, unknown> = {};
  const countKeys: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'ip' && !isActor) properties[key] = '[hidden]';
    else if (key === 'directory' && typeof value === 'string')
      properties[key] = `/${value}/`.replace(/\/{2,}/gu, '/');
    else properties[key] = value;
    if (Array.isArray(value)) {
      properties[`${key}_count`] = value.length;
      countKeys.push(`${key}_count`);
    }
  }
  if (countKeys.length === 1 && countKeys[0]) {
    properties.count = properties[countKeys[0]];
    delete properties[countKeys[0]];
  }
  const attributes: Record<string, unknown> = {
    id: createHash('sha1').update(String(row.id)).digest('hex'),
    batch: row.batch,
    event: row.event,
    is_api: row.api_key_id !== null,
    ip: isActor || viewer.root_admin === 1 ? row.ip : null,
    description: row.description,
    properties,
    has_additional_metadata: Object.keys(raw).some((k) => !PLAIN_KEYS.has(k)),
    timestamp: atom(row.timestamp),
  };
  if (withActor) {
    attributes.relationships = {
      actor: actor
        ? { object: 'user', attributes: clientUserAttributes(actor) }
        : { object: 'null_resource', attributes: null },
    };
  }
  return attributes;
}
