import { createHash } from 'node:crypto';

/**
 * The `jti` of every token the panel mints for a user on a server (reference §3.4: md5 of the user
 * id followed by the server uuid). The same for all of them, so the panel can deny them all on the
 * daemon (`POST /api/servers/{uuid}/ws/deny`) when the user's access changes, without recording any.
 */
export function userServerTokenId(userId: number, serverUuid: string): string {
  return createHash('md5').update(`${userId}${serverUuid}`).digest('hex');
}
