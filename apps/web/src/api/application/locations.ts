import { getItem, getPage, type ListQuery, type Page } from './http.ts';

/** Application `location` (reference §5.1). */
export interface WireLocation {
  id: number;
  short: string;
  long: string | null;
  created_at: string;
  updated_at: string | null;
}

export interface AdminLocation {
  id: number;
  short: string;
  long: string | null;
  createdAt: string;
  updatedAt: string | null;
}

export function toAdminLocation(wire: WireLocation): AdminLocation {
  return {
    id: wire.id,
    short: wire.short,
    long: wire.long,
    createdAt: wire.created_at,
    updatedAt: wire.updated_at,
  };
}

export function listLocations(query: ListQuery = {}): Promise<Page<AdminLocation>> {
  return getPage('/locations', query, toAdminLocation);
}

export function getLocation(id: number | string): Promise<AdminLocation> {
  return getItem(`/locations/${encodeURIComponent(String(id))}`, toAdminLocation);
}
