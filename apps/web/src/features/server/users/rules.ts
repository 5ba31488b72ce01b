import { can } from '../../../lib/shared.ts';

/** Given to every subuser by the panel; neither counted nor offered (spec 001 §3, §6). */
export const HIDDEN_PERMISSION = 'websocket.connect';
/** The catalogue group the modal does not offer. */
export const HIDDEN_GROUP = 'websocket';

/** The number the list shows: every permission but websocket.connect. */
export function countedPermissions(permissions: readonly string[]): number {
  return permissions.filter((p) => p !== HIDDEN_PERMISSION).length;
}

/**
 * Whether the signed-in user may tick `permission` (spec 001 §5): only what they hold, unless they
 * are a root admin or hold `*` (owners do).
 */
export function maySelect(permission: string, held: readonly string[], rootAdmin: boolean): boolean {
  return rootAdmin || can(held, permission);
}

/** Up to two letters standing for a person when their picture cannot load. */
export function initials(username: string, email: string): string {
  const source = (username || email.split('@')[0] || '?').trim();
  const words = source.split(/[\s._-]+/).filter(Boolean);
  const letters = words.length > 1 ? `${words[0]![0]}${words[1]![0]}` : source.slice(0, 2);
  return letters.toUpperCase();
}

/** One catalogue group as the modal shows it. */
export interface CatalogueGroup {
  name: string;
  description: string;
  keys: { key: string; permission: string; description: string }[];
}

/**
 * The catalogue from GET /api/client/permissions (`{ group: { description, keys } }`) as a list,
 * in the panel's order, without the websocket group.
 */
export function catalogueGroups(catalogue: Record<string, unknown>): CatalogueGroup[] {
  const groups: CatalogueGroup[] = [];
  for (const [name, raw] of Object.entries(catalogue)) {
    if (name === HIDDEN_GROUP || !raw || typeof raw !== 'object') continue;
    const { description, keys } = raw as { description?: unknown; keys?: unknown };
    if (!keys || typeof keys !== 'object') continue;
    groups.push({
      name,
      description: typeof description === 'string' ? description : '',
      keys: Object.entries(keys as Record<string, unknown>).map(([key, text]) => ({
        key,
        permission: `${name}.${key}`,
        description: typeof text === 'string' ? text : '',
      })),
    });
  }
  return groups;
}
