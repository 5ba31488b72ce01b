import { z } from 'zod';

/**
 * `POST /api/deauthorize-user` (node token; protocol §9.2b): the daemon closes the user's websockets
 * and SFTP sessions on the listed servers (every server of the node when `servers` is absent) and
 * refuses that user's tokens issued at or before the call. The panel calls it when a subuser is
 * removed or loses permissions, when a user's password changes and when a user is deleted.
 */
export const deauthorizeUserSchema = z.object({
  user: z.uuid(),
  servers: z.array(z.uuid()).optional(),
});
export type DeauthorizeUser = z.infer<typeof deauthorizeUserSchema>;
