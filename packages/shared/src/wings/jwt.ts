import { z } from 'zod';

/**
 * The one purpose of a panel-signed token (protocol §9.2b, GHSA-8r6w-3qq5-4p4r): every route of the
 * daemon accepts only its own scope, so a websocket or download token cannot upload.
 */
export const TOKEN_SCOPES = ['websocket', 'file-download', 'file-upload', 'backup-download', 'transfer'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** The scopes a signed URL (protocol §4) can carry: every scope but the websocket's. */
export const SIGNED_URL_SCOPES = ['file-download', 'file-upload', 'backup-download', 'transfer'] as const;
export type SignedUrlScope = (typeof SIGNED_URL_SCOPES)[number];

/**
 * Our extension: the issue time in integer Unix milliseconds, beside the integer-second `iat` (Wings
 * cannot parse fractional times, and ignores this claim). A denial (`ws/deny`, `deauthorize-user`)
 * refuses tokens issued at or before it; in the denial's own second only this claim can tell a
 * token issued just after it from one issued just before (see the daemon's ws/denylist.ts).
 */
const issuedAtMs = z.number().int().nonnegative().optional();

/**
 * Claims of the websocket JWT the panel signs (HS256, key = the node's plain token). Time claims are
 * integer Unix seconds. The daemon requires `scope: 'websocket'`, `exp`, `iat`, `server_uuid` and
 * `permissions`; `nbf` and `aud` are checked when present.
 */
export const websocketClaimsSchema = z.object({
  scope: z.literal('websocket'),
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
  issued_at_ms: issuedAtMs,
});
export type WebsocketClaims = z.infer<typeof websocketClaimsSchema>;

/**
 * Claims of the one-time download/upload URL tokens (protocol §4; same key and algorithm). The
 * daemon requires `scope` (the route's own: see SignedUrlClaimsFor), `exp` and `server_uuid`;
 * `unique_id` makes a token single use, `nbf` is checked when present, `file_path` names the download.
 */
export const signedUrlClaimsSchema = z.object({
  scope: z.enum(SIGNED_URL_SCOPES),
  iss: z.string().optional(),
  aud: z.union([z.string(), z.array(z.string())]).optional(),
  jti: z.string().optional(),
  iat: z.number().optional(),
  nbf: z.number().optional(),
  exp: z.number(),
  server_uuid: z.string(),
  unique_id: z.string().optional(),
  file_path: z.string().optional(),
  /** `GET /download/backup`: the backup the URL serves */
  backup_uuid: z.string().optional(),
  /** Our extension: the only folders the URL may reach (a folder-scoped subuser's); absent = all */
  file_scope: z.array(z.string()).optional(),
  user_uuid: z.string().optional(),
  user_id: z.number().int().optional(),
  issued_at_ms: issuedAtMs,
});
export type SignedUrlClaims = z.infer<typeof signedUrlClaimsSchema>;
/** The claims of a URL for one purpose: `SignedUrlClaimsFor<'file-upload'>` has `scope: 'file-upload'`. */
export type SignedUrlClaimsFor<S extends SignedUrlScope> = SignedUrlClaims & { scope: S };

/** The only JWT algorithm on either wire: HMAC-SHA256 keyed with the node's plain token. */
export const WINGS_JWT_ALGORITHM = 'HS256';

/** Websocket permission test: an exact key, or `*` for everything except `admin.*` keys. */
export function tokenHasPermission(permissions: readonly string[], wanted: string): boolean {
  if (permissions.includes(wanted)) return true;
  return permissions.includes('*') && !wanted.startsWith('admin');
}
