import { z } from 'zod';

/**
 * Our extension of both `GET /api/system` answers (Wings sends no such block): how the node runs
 * servers. `driver` is `process` or `docker`; `confinement` `bwrap`, `container` or `none`;
 * `network` the Docker network mode of containers (null for processes).
 */
export const nodeRuntimeSchema = z.looseObject({
  driver: z.string(),
  confinement: z.string(),
  limits: z.string(),
  enforcement: z.string(),
  network: z.string().nullable().optional(),
});
export type NodeRuntime = z.infer<typeof nodeRuntimeSchema>;

/**
 * `GET /api/system?v=2` (Wings protocol §2.3): the node's version and host facts, with the total
 * memory the plain answer lacks. Wings adds a `docker` block; our daemon sends it only on the
 * docker runtime (docs/compatibility.md), so it is optional here, and adds `runtime` always.
 */
export const systemInfoV2Schema = z.looseObject({
  version: z.string(),
  docker: z.looseObject({ version: z.string() }).optional(),
  runtime: nodeRuntimeSchema.optional(),
  system: z.looseObject({
    architecture: z.string(),
    cpu_threads: z.number().int(),
    memory_bytes: z.number().int(),
    kernel_version: z.string(),
    /** The distribution's PRETTY_NAME (e.g. `Debian GNU/Linux 12 (bookworm)`), not the Go OS name. */
    os: z.string(),
    os_type: z.string(),
  }),
});
export type SystemInfoV2 = z.infer<typeof systemInfoV2Schema>;
