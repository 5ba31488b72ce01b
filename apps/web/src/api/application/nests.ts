import type {
  AdminEgg as WireEgg,
  AdminEggVariable as WireEggVariable,
  AdminNest as WireNest,
  EggImportMeta,
  EggUpdateBody,
  EggVariableBody,
  NestBody,
} from '@talon/shared/admin/egg-wire';
import {
  APP,
  deleteItem,
  getAll,
  getItem,
  getPage,
  relationList,
  requestApp,
  sendItem,
  type ListQuery,
  type Page,
  type WireItem,
  type WireRelationships,
} from './http.ts';
import type { EggVariableChoice } from './servers.ts';

/** Application `nest` and `egg` (reference §5.1), wire shapes in packages/shared. */
export type { WireEgg, WireNest, WireEggVariable, EggImportMeta, EggUpdateBody, EggVariableBody, NestBody };

const nestPath = (nestId: number | string) => `/nests/${encodeURIComponent(String(nestId))}`;
const eggPath = (nestId: number | string, eggId: number | string) =>
  `${nestPath(nestId)}/eggs/${encodeURIComponent(String(eggId))}`;

export interface AdminNest {
  id: number;
  uuid: string;
  author: string;
  name: string;
  description: string | null;
  createdAt: string;
  /** Ids of the eggs it holds; null when the list was not asked to include them. */
  eggIds: number[] | null;
}

export function toAdminNest(wire: WireNest & WireRelationships): AdminNest {
  return {
    id: wire.id,
    uuid: wire.uuid,
    author: wire.author,
    name: wire.name,
    description: wire.description,
    createdAt: wire.created_at,
    eggIds:
      wire.relationships?.eggs?.object === 'list'
        ? relationList<WireEgg>(wire, 'eggs').map((egg) => egg.id)
        : null,
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
  /** How many servers use it; null when not included. */
  serverCount: number | null;
}

export function toAdminEgg(wire: WireEgg & WireRelationships): AdminEgg {
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
    serverCount: wire.relationships?.servers?.object === 'list' ? relationList(wire, 'servers').length : null,
  };
}

export interface AdminEggVariable extends EggVariableChoice {
  id: number;
  eggId: number;
}

export function toAdminEggVariable(wire: WireEggVariable): AdminEggVariable {
  return {
    id: wire.id,
    eggId: wire.egg_id,
    name: wire.name,
    description: wire.description,
    envVariable: wire.env_variable,
    defaultValue: wire.default_value,
    userViewable: wire.user_viewable,
    userEditable: wire.user_editable,
    rules: wire.rules,
  };
}

/** Nests with their eggs included, so each row can say how many it has. `search` is our extension. */
export function listNests(query: ListQuery = {}): Promise<Page<AdminNest>> {
  return getPage('/nests', { ...query, include: query.include ?? ['eggs'] }, toAdminNest);
}

export function getNest(id: number | string): Promise<AdminNest> {
  return getItem(nestPath(id), toAdminNest);
}

export function createNest(body: NestBody): Promise<AdminNest> {
  return sendItem('POST', '/nests', body, toAdminNest);
}

export function updateNest(id: number | string, body: NestBody): Promise<AdminNest> {
  return sendItem('PATCH', nestPath(id), body, toAdminNest);
}

export function deleteNest(id: number | string): Promise<void> {
  return deleteItem(nestPath(id));
}

/** A nest's eggs, each with the servers using it (for the count). */
export function listEggs(nestId: number | string): Promise<AdminEgg[]> {
  return getAll(`${nestPath(nestId)}/eggs`, toAdminEgg, ['servers']);
}

export function getEgg(nestId: number | string, eggId: number | string): Promise<AdminEgg> {
  return getItem(eggPath(nestId, eggId), toAdminEgg, ['servers']);
}

export function updateEgg(nestId: number | string, eggId: number | string, body: EggUpdateBody) {
  return sendItem('PATCH', eggPath(nestId, eggId), body, toAdminEgg);
}

export function deleteEgg(nestId: number | string, eggId: number | string): Promise<void> {
  return deleteItem(eggPath(nestId, eggId));
}

/** Where the browser downloads the egg's PTDL_v2 file (the session cookie signs a plain GET). */
export function eggExportUrl(nestId: number | string, eggId: number | string): string {
  return `${APP}${eggPath(nestId, eggId)}/export`;
}

export interface EggImportResult {
  egg: AdminEgg;
  meta: EggImportMeta;
}

/** Imports an egg file's text (JSON or YAML) into the nest; a refused file rejects with the 422. */
export async function importEgg(nestId: number | string, text: string): Promise<EggImportResult> {
  const { data } = await requestApp<WireItem<WireEgg> & { meta: EggImportMeta }>(
    'POST',
    `${nestPath(nestId)}/eggs/import`,
    { egg: text },
  );
  return { egg: toAdminEgg(data.attributes), meta: data.meta };
}

export function listEggVariables(
  nestId: number | string,
  eggId: number | string,
): Promise<AdminEggVariable[]> {
  return getAll(`${eggPath(nestId, eggId)}/variables`, toAdminEggVariable);
}

export function createEggVariable(nestId: number | string, eggId: number | string, body: EggVariableBody) {
  return sendItem('POST', `${eggPath(nestId, eggId)}/variables`, body, toAdminEggVariable);
}

export function updateEggVariable(
  nestId: number | string,
  eggId: number | string,
  variableId: number,
  body: EggVariableBody,
) {
  return sendItem('PATCH', `${eggPath(nestId, eggId)}/variables/${variableId}`, body, toAdminEggVariable);
}

export function deleteEggVariable(nestId: number | string, eggId: number | string, variableId: number) {
  return deleteItem(`${eggPath(nestId, eggId)}/variables/${variableId}`);
}

/** Finds the nest of an egg when the address does not say it (the egg pages' `?nest=`). */
export async function findEggNest(eggId: number): Promise<number | null> {
  for (let page = 1; ; page++) {
    const result = await listNests({ page, perPage: 100 });
    const nest = result.items.find((n) => n.eggIds?.includes(eggId));
    if (nest) return nest.id;
    if (page >= result.pagination.totalPages) return null;
  }
}
