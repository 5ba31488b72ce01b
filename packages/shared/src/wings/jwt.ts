import { z } from 'zod';

/**
 * Claims of the websocket JWT the panel signs (HS256, key = the node's plain token). Time claims are
 * integer Unix seconds. The daemon requires `exp`, `iat`, `server_uuid` and `permissions`; `nbf` and
 * `aud` are checked when present.
 */
export const websocketClaimsSchema = z.object({
  iss: z.string().optional(),
  aud: z.union([z.string(), z.array(z.string())]).optional(),
  jti: z.string().optional(),
  iat: z.number().int().optional(),
  nbf: z.number().int().optional(),
  exp: z.number().int(),
  server_uuid: z.string(),
  permissions: z.array(z.string()),
  user_uuid: z.string().optional(),
  user_id: z.number().int().optional(),
  unique_id: z.string().optional(),
});
export type WebsocketClaims = z.infer<typeof websocketClaimsSchema>;

/** Websocket permission test: an exact key, or `*` for everything except `admin.*` keys. */
export function tokenHasPermission(permissions: readonly string[], wanted: string): boolean {
  if (permissions.includes(wanted)) return true;
  return permissions.includes('*') && !wanted.startsWith('admin');
}
