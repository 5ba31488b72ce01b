import type { InstallLogAttributes } from '@talon/shared/wings/install-log';
import { getItem } from './http.ts';

/**
 * The last install's log of a server as its node kept it (`GET /api/application/servers/:id/
 * install-log`, our extension), or null when the node has none.
 */
export function getInstallLog(serverId: number): Promise<string | null> {
  return getItem(`/servers/${serverId}/install-log`, (a: InstallLogAttributes) => a.content);
}
