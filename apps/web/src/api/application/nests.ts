import type { AdminEgg as WireEgg, AdminNest as WireNest } from '@talon/shared/admin/egg-wire';
import { getAll, getItem, getPage, type ListQuery, type Page } from './http.ts';

/** Application `nest` and `egg` (reference §5.1), wire shapes in packages/shared. */
export type { WireEgg, WireNest };

export interface AdminNest {
  id: number;
  uuid: string;
  author: string;
  name: string;
  description: string | null;
  createdAt: string;
}

export function toAdminNest(wire: WireNest): AdminNest {
  return {
    id: wire.id,
    uuid: wire.uuid,
    author: wire.author,
    name: wire.name,
    description: wire.description,
    createdAt: wire.created_at,
  };
}

export interface AdminEgg {
  id: number;
  uuid: string;
  name: string;
  nestId: number;
  author: string;
  description: string | null;
  dockerImages: Record<string, string>;
  startup: string;
  config: WireEgg['config'];
  script: WireEgg['script'];
  createdAt: string;
}

export function toAdminEgg(wire: WireEgg): AdminEgg {
  return {
    id: wire.id,
    uuid: wire.uuid,
    name: wire.name,
    nestId: wire.nest,
    author: wire.author,
    description: wire.description,
    dockerImages: wire.docker_images,
    startup: wire.startup,
    config: wire.config,
    script: wire.script,
    createdAt: wire.created_at,
  };
}

export function listNests(query: ListQuery = {}): Promise<Page<AdminNest>> {
  return getPage('/nests', query, toAdminNest);
}

export function getNest(id: number | string): Promise<AdminNest> {
  return getItem(`/nests/${encodeURIComponent(String(id))}`, toAdminNest);
}

export function listEggs(nestId: number | string): Promise<AdminEgg[]> {
  return getAll(`/nests/${encodeURIComponent(String(nestId))}/eggs`, toAdminEgg);
}

export function getEgg(nestId: number | string, eggId: number | string): Promise<AdminEgg> {
  return getItem(
    `/nests/${encodeURIComponent(String(nestId))}/eggs/${encodeURIComponent(String(eggId))}`,
    toAdminEgg,
  );
}
