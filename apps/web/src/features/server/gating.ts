import { can } from '../../lib/shared.ts';

export type TabGate = 'allowed' | 'denied' | 'not-found';

/** Permission each server-area path needs (spec 001 §2 "Tabs and their gating"). */
const RULES: { match: RegExp; needs: string[][] }[] = [
  { match: /^$/, needs: [] },
  { match: /^files$/, needs: [['file.*']] },
  { match: /^files\/(edit|new)(\/.*)?$/, needs: [['file.*']] },
  { match: /^databases$/, needs: [['database.*']] },
  { match: /^schedules(\/[^/]+)?$/, needs: [['schedule.*']] },
  { match: /^users$/, needs: [['user.*']] },
  { match: /^backups$/, needs: [['backup.*']] },
  { match: /^network$/, needs: [['allocation.*']] },
  { match: /^startup$/, needs: [['startup.*']] },
  // Settings is reachable with any settings permission or with file.sftp alone.
  { match: /^settings$/, needs: [['settings.*'], ['file.sftp']] },
  // Not in the spec's table: the server's activity log, as the reference gates it.
  { match: /^activity$/, needs: [['activity.read']] },
];

/**
 * Whether a path below `/server/{id}` may be shown. `rest` is the part after the id, without
 * slashes at either end. A listed path with none of its permission sets held is denied; an unknown
 * path is not found.
 */
export function gateFor(rest: string, permissions: readonly string[]): TabGate {
  const path = rest.replace(/^\/+|\/+$/g, '');
  const rule = RULES.find((r) => r.match.test(path));
  if (!rule) return 'not-found';
  if (rule.needs.length === 0) return 'allowed';
  return rule.needs.some((set) => can(permissions, set)) ? 'allowed' : 'denied';
}
