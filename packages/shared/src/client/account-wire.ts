import { z } from 'zod';

/** An `api_key` object of the client API (`GET/POST /api/client/account/api-keys`), never its secret. */
export const clientApiKeySchema = z.object({
  identifier: z.string(),
  description: z.string(),
  allowed_ips: z.array(z.string()),
  /** ISO 8601 with offset, or null. */
  created_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});
export type ClientApiKey = z.infer<typeof clientApiKeySchema>;
