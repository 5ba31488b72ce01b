import { z } from 'zod';

/**
 * The application API's node extensions (docs/api.md "Nodes"): the daemon's health as the panel
 * saw it, and the one-line setup of a daemon on a new machine.
 */

/** `GET /api/application/nodes/{id}/health` → `{ object: 'node_health', attributes }`. */
export const nodeHealthSchema = z.object({
  reachable: z.boolean(),
  version: z.string().nullable(),
  architecture: z.string().nullable(),
  cpu_count: z.number().int().nullable(),
  kernel_version: z.string().nullable(),
  os: z.string().nullable(),
  memory: z.object({ total: z.number().int().nullable() }),
  /**
   * How the node runs servers: `driver` `process` or `docker`; `confinement` `bwrap`, `container`
   * or `none`; `network` the containers' Docker network mode (null for processes or when the node
   * does not say, e.g. Wings, which runs Docker). Null when unknown.
   */
  runtime: z
    .object({ driver: z.string(), confinement: z.string().nullable(), network: z.string().nullable() })
    .nullable(),
  /** Why the daemon could not be asked, in words; null when it answered. */
  error: z.string().nullable(),
  checked_at: z.string(),
});
export type NodeHealth = z.infer<typeof nodeHealthSchema>;

/** `POST /api/application/nodes/{id}/setup-token` → 201 `{ object: 'node_setup_token', attributes }`. */
export const nodeSetupTokenSchema = z.object({
  /** Shown once; the panel keeps only its hash. */
  token: z.string(),
  expires_at: z.string(),
  /** One line to paste on the node machine, in a checkout of Talon. */
  command: z.string(),
});
export type NodeSetupToken = z.infer<typeof nodeSetupTokenSchema>;

// Kept in a zod-free module for the web admin; re-exported for the panel and the daemon.
export { NODE_SETUP_TOKEN_MINUTES, nodeSetupPath } from './node-setup.ts';
