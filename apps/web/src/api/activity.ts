import { parseWireDate } from '../lib/dates.ts';
import { http } from './http.ts';
import type { Paginated } from './types.ts';

/** Who did it: a panel user, or null for the system and the daemon. */
export interface ActivityActor {
  uuid: string;
  username: string;
  email: string;
  image: string;
}

/** One `activity_log` entry (reference §3.1). */
export interface ActivityEvent {
  id: string;
  batch: string | null;
  event: string;
  isApi: boolean;
  /** Shown to the actor and root admins only; null otherwise. */
  ip: string | null;
  description: string | null;
  properties: Record<string, unknown>;
  hasAdditionalMetadata: boolean;
  timestamp: Date | null;
  actor: ActivityActor | null;
}

interface WireActivity {
  id: string;
  batch: string | null;
  event: string;
  is_api: boolean;
  ip: string | null;
  description: string | null;
  properties: Record<string, unknown> | unknown[];
  has_additional_metadata: boolean;
  timestamp: string | null;
  relationships?: {
    actor?: {
      object: string;
      attributes: { uuid: string; username: string; email: string; image: string } | null;
    };
  };
}

interface WireActivityPage {
  data: { attributes: WireActivity }[];
  meta?: { pagination?: { current_page?: number; total_pages?: number; total?: number } };
}

function toActivity(wire: WireActivity): ActivityEvent {
  const actor = wire.relationships?.actor?.attributes ?? null;
  return {
    id: wire.id,
    batch: wire.batch,
    event: wire.event,
    isApi: wire.is_api,
    ip: wire.ip,
    description: wire.description,
    // An empty property set may arrive as [] from other panels.
    properties: Array.isArray(wire.properties) ? {} : wire.properties,
    hasAdditionalMetadata: wire.has_additional_metadata,
    timestamp: parseWireDate(wire.timestamp),
    actor: actor
      ? { uuid: actor.uuid, username: actor.username, email: actor.email, image: actor.image }
      : null,
  };
}

/** Which page to read and, optionally, the part of an event name to filter on. */
export interface ActivityQuery {
  page: number;
  event?: string;
}

/** Page size the lists ask for (the reference's default). */
export const ACTIVITY_PAGE_SIZE = 25;

async function getActivity(url: string, query: ActivityQuery): Promise<Paginated<ActivityEvent>> {
  const { data } = await http.get<WireActivityPage>(url, {
    params: {
      page: query.page,
      per_page: ACTIVITY_PAGE_SIZE,
      sort: '-timestamp',
      include: 'actor',
      'filter[event]': query.event || undefined,
    },
  });
  const p = data.meta?.pagination;
  return {
    items: data.data.map(({ attributes }) => toActivity(attributes)),
    pagination: { currentPage: p?.current_page ?? 1, totalPages: p?.total_pages ?? 1, total: p?.total ?? 0 },
  };
}

/** GET /api/client/account/activity: what happened to the caller's account, newest first. */
export function getAccountActivity(query: ActivityQuery): Promise<Paginated<ActivityEvent>> {
  return getActivity('/api/client/account/activity', query);
}

/** GET /api/client/servers/{server}/activity (activity.read), newest first. */
export function getServerActivity(serverId: string, query: ActivityQuery): Promise<Paginated<ActivityEvent>> {
  return getActivity(`/api/client/servers/${serverId}/activity`, query);
}
