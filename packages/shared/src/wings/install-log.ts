import { z } from 'zod';

/**
 * The last install's log of a server: the daemon's `GET /api/servers/:server/install-logs` (our
 * extension, docs/api.md) answers `{"data": "<text>"}`, or 404 when the node has none.
 */
export const daemonInstallLogSchema = z.object({ data: z.string() });
export type DaemonInstallLog = z.infer<typeof daemonInstallLogSchema>;

/** The panel's `GET /api/application/servers/:id/install-log` (extension): `content` null = none yet. */
export interface InstallLogAttributes {
  content: string | null;
}
