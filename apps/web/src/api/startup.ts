import { http } from './http.ts';

/** A startup variable as the server's users see it (spec 001 §3). */
export interface ServerEggVariable {
  name: string;
  description: string;
  envVariable: string;
  defaultValue: string;
  serverValue: string | null;
  isEditable: boolean;
  rules: string[];
}

/** Startup data (spec 001 §3): the startup command, the variables and the egg's images. */
export interface StartupData {
  invocation: string;
  variables: ServerEggVariable[];
  /** display name → image reference */
  dockerImages: Record<string, string>;
}

interface WireEggVariable {
  name: string;
  description: string;
  env_variable: string;
  default_value: string;
  server_value: string | null;
  is_editable: boolean;
  rules: string;
}

export async function getServerStartup(serverId: string): Promise<StartupData> {
  const { data } = await http.get<{
    data: { attributes: WireEggVariable }[];
    meta: { startup_command: string; docker_images: Record<string, string> | [] };
  }>(`/api/client/servers/${serverId}/startup`);
  return {
    invocation: data.meta.startup_command,
    dockerImages: Array.isArray(data.meta.docker_images) ? {} : data.meta.docker_images,
    variables: data.data.map(({ attributes: v }) => ({
      name: v.name,
      description: v.description,
      envVariable: v.env_variable,
      defaultValue: v.default_value,
      serverValue: v.server_value,
      isEditable: v.is_editable,
      rules: v.rules.split('|'),
    })),
  };
}

/** PUT .../settings/docker-image; the answer is not read (spec 001 §7). */
export async function setServerDockerImage(serverId: string, image: string): Promise<void> {
  await http.put(`/api/client/servers/${serverId}/settings/docker-image`, { docker_image: image });
}
