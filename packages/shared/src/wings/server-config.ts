import { z } from 'zod';

/**
 * The server configuration document the panel serves to daemons (Wings protocol §6):
 * `GET /api/remote/servers/<uuid>` → `{settings, process_configuration}`. Unknown keys are kept
 * (passthrough) so the daemon can echo the document back in `GET /api/servers/:server`.
 */
const envValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const serverSettingsSchema = z.looseObject({
  uuid: z.string(),
  meta: z.looseObject({ name: z.string().default(''), description: z.string().default('') }).optional(),
  suspended: z.boolean().default(false),
  environment: z.record(z.string(), envValue).default({}),
  invocation: z.string().default(''),
  skip_egg_scripts: z.boolean().default(false),
  build: z
    .looseObject({
      memory_limit: z.number().default(0),
      swap: z.number().default(0),
      io_weight: z.number().default(500),
      cpu_limit: z.number().default(0),
      threads: z.string().nullable().default(null),
      disk_space: z.number().default(0),
      oom_disabled: z.boolean().default(false),
    })
    .default({
      memory_limit: 0,
      swap: 0,
      io_weight: 500,
      cpu_limit: 0,
      threads: null,
      disk_space: 0,
      oom_disabled: false,
    }),
  container: z.looseObject({ image: z.string().default('') }).optional(),
  allocations: z
    .looseObject({
      force_outgoing_ip: z.boolean().default(false),
      default: z.object({ ip: z.string(), port: z.number().int() }),
      mappings: z.record(z.string(), z.array(z.number().int())).default({}),
    })
    .optional(),
  mounts: z.array(z.unknown()).default([]),
  egg: z
    .looseObject({ id: z.string().optional(), file_denylist: z.array(z.string()).default([]) })
    .optional(),
  crash_detection_enabled: z.boolean().optional(),
});
export type ServerSettings = z.infer<typeof serverSettingsSchema>;

export const processConfigurationSchema = z.looseObject({
  startup: z
    .looseObject({
      done: z.union([z.string(), z.array(z.string())]).default([]),
      user_interaction: z.array(z.unknown()).default([]),
      strip_ansi: z.boolean().default(false),
    })
    .default({ done: [], user_interaction: [], strip_ansi: false }),
  stop: z
    .looseObject({ type: z.string().default(''), value: z.string().default('') })
    .default({ type: '', value: '' }),
  configs: z.array(z.unknown()).default([]),
});
export type ProcessConfiguration = z.infer<typeof processConfigurationSchema>;

export const remoteServerSchema = z.object({
  settings: serverSettingsSchema,
  process_configuration: processConfigurationSchema,
});
export type RemoteServer = z.infer<typeof remoteServerSchema>;

/** One page of `GET /api/remote/servers?page=&per_page=` (Laravel pagination envelope). */
export const remoteServerPageSchema = z.object({
  data: z.array(z.object({ uuid: z.string(), settings: z.unknown(), process_configuration: z.unknown() })),
  meta: z.looseObject({ current_page: z.number().int(), last_page: z.number().int() }),
});
export type RemoteServerPage = z.infer<typeof remoteServerPageSchema>;

/** `GET /api/remote/servers/<uuid>/install`. */
export const installScriptSchema = z.object({
  container_image: z.string().default(''),
  entrypoint: z.string().default('bash'),
  script: z.string().default(''),
});
export type InstallScript = z.infer<typeof installScriptSchema>;

/** `POST /api/remote/servers/<uuid>/install`. */
export interface InstallReport {
  successful: boolean;
  reinstall: boolean;
}
