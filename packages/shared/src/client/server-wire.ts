import { z } from 'zod';

/**
 * Shapes the panel's client API sends the web app about one server (reference §3). The panel builds
 * them from what the daemon reports; the web app maps them to its own camelCase entities.
 */

/** A `file_object` (`GET …/files/list`, `POST …/files/compress`), reference §3.1. */
export const clientFileObjectSchema = z.object({
  name: z.string(),
  mode: z.string(),
  mode_bits: z.string(),
  size: z.number(),
  is_file: z.boolean(),
  is_symlink: z.boolean(),
  mimetype: z.string(),
  /** ISO 8601 with offset. */
  created_at: z.string(),
  modified_at: z.string(),
});
export type ClientFileObject = z.infer<typeof clientFileObjectSchema>;

/** The `stats` attributes of `GET …/resources`. `current_state` is a daemon state name. */
export const clientServerResourcesSchema = z.object({
  current_state: z.string(),
  is_suspended: z.boolean(),
  resources: z.object({
    memory_bytes: z.number(),
    cpu_absolute: z.number(),
    disk_bytes: z.number(),
    network_rx_bytes: z.number(),
    network_tx_bytes: z.number(),
    uptime: z.number(),
  }),
});
export type ClientServerResources = z.infer<typeof clientServerResourcesSchema>;
