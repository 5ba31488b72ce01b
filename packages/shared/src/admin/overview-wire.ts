import { z } from 'zod';

/** `GET /api/application/overview`: the admin area's summary page. */
export const adminOverviewSchema = z.object({
  version: z.string(),
  counts: z.object({
    users: z.number().int(),
    servers: z.number().int(),
    nodes: z.number().int(),
    locations: z.number().int(),
    nests: z.number().int(),
    eggs: z.number().int(),
    database_hosts: z.number().int(),
  }),
  /** A fresh install's "first steps", each done or not. */
  first_steps: z.object({
    node_ready: z.boolean(),
    egg_available: z.boolean(),
    server_created: z.boolean(),
    user_invited: z.boolean(),
  }),
});
export type AdminOverview = z.infer<typeof adminOverviewSchema>;
