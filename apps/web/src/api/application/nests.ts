import { getAll, getItem, getPage, type ListQuery, type Page } from './http.ts';

/** Application `nest` (reference §5.1). */
export interface WireNest {
  id: number;
  uuid: string;
  author: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string | null;
}

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

/** Application `egg` (reference §5.1). */
export interface WireEgg {
  id: number;
  uuid: string;
  name: string;
  nest: number;
  author: string;
  description: string | null;
  docker_image: string;
  docker_images: Record<string, string>;
  config: {
    files: unknown;
    startup: unknown;
    stop: string | null;
    logs: unknown;
    file_denylist: (string | null)[];
    extends: number | null;
  };
  startup: string;
  script: {
    privileged: boolean;
    install: string | null;
    entry: string;
    container: string;
    extends: number | null;
  };
  created_at: string;
  updated_at: string | null;
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
