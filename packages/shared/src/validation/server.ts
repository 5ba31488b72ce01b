import * as z from 'zod/mini';
import { requiredString } from './auth.ts';
import { SERVER_NAME_MAX, VALIDATION_MESSAGES as M } from './messages.ts';

/** Change Server Details (spec 001 §2 "Settings", §5 "server name required (min 1)"). */
export const renameServerSchema = z.object({
  name: requiredString(M.serverNameRequired, { trim: true }).check(
    z.maxLength(SERVER_NAME_MAX, M.serverNameMax),
  ),
  description: z.string(),
});
export type RenameServerValues = z.infer<typeof renameServerSchema>;
