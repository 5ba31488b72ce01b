import {
  deleteItem,
  getItem,
  getPage,
  itemPath,
  relationCount,
  sendItem,
  type ListQuery,
  type Page,
  type WireRelationships,
} from './http.ts';

/** Application `location` (reference §5.1). */
export interface WireLocation extends WireRelationships {
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
  /** Counts from include=nodes / include=servers; null when not asked. */
  nodeCount: number | null;
  serverCount: number | null;
}

export function toAdminLocation(wire: WireLocation): AdminLocation {
  return {
    id: wire.id,
    short: wire.short,
    long: wire.long,
    createdAt: wire.created_at,
    updatedAt: wire.updated_at,
    nodeCount: relationCount(wire, 'nodes'),
    serverCount: relationCount(wire, 'servers'),
  };
}

/** Sorts: short (extension), id. */
export function listLocations(query: ListQuery = {}): Promise<Page<AdminLocation>> {
  return getPage('/locations', query, toAdminLocation);
}

export function getLocation(id: number | string): Promise<AdminLocation> {
  return getItem(itemPath('/locations', id), toAdminLocation);
}

export interface LocationInput {
  short: string;
  /** '' sends null: no description. */
  long: string;
}

function toBody(input: LocationInput) {
  return { short: input.short, long: input.long === '' ? null : input.long };
}

export function createLocation(input: LocationInput): Promise<AdminLocation> {
  return sendItem('POST', '/locations', toBody(input), toAdminLocation);
}

export function updateLocation(id: number, input: LocationInput): Promise<AdminLocation> {
  return sendItem('PATCH', `/locations/${id}`, toBody(input), toAdminLocation);
}

/** Refused (400) while nodes use the location, with the API's words. */
export function deleteLocation(id: number): Promise<void> {
  return deleteItem(`/locations/${id}`);
}
