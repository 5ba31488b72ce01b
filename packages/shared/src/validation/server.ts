import * as z from 'zod/mini';
import { requiredString } from './auth.ts';

/** Server name length limit (the API's rule). */
export const SERVER_NAME_MAX = 191;

/**
 * Messages of the server settings forms; the spec gives the rule (required, min 1) but no text.
 * Kept out of VALIDATION_MESSAGES, which the sign-in page downloads.
 */
export const SERVER_VALIDATION_MESSAGES = {
  serverNameRequired: 'A server name must be provided.',
  serverNameMax: 'The server name must not exceed 191 characters.',
} as const;

const M = SERVER_VALIDATION_MESSAGES;

/** Change Server Name (spec 001 §2 "Settings", §5 "server name required (min 1)"). */
export const renameServerSchema = z.object({
  name: requiredString(M.serverNameRequired, { trim: true }).check(
    z.maxLength(SERVER_NAME_MAX, M.serverNameMax),
  ),
  description: z.string(),
});
export type RenameServerValues = z.infer<typeof renameServerSchema>;
