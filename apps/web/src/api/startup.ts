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

/** What PUT .../startup/variable answers: the variable as stored and the new startup command. */
export interface UpdatedStartupVariable {
  variable: ServerEggVariable;
  invocation: string;
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

function toEggVariable(v: WireEggVariable): ServerEggVariable {
  return {
    name: v.name,
    description: v.description,
    envVariable: v.env_variable,
    defaultValue: v.default_value,
    serverValue: v.server_value,
    isEditable: v.is_editable,
    rules: v.rules.split('|'),
  };
}

export async function getServerStartup(serverId: string): Promise<StartupData> {
  const { data } = await http.get<{
    data: { attributes: WireEggVariable }[];
    meta: { startup_command: string; docker_images: Record<string, string> | [] };
  }>(`/api/client/servers/${serverId}/startup`);
  return {
    invocation: data.meta.startup_command,
    dockerImages: Array.isArray(data.meta.docker_images) ? {} : data.meta.docker_images,
    variables: data.data.map(({ attributes }) => toEggVariable(attributes)),
  };
}

/** PUT .../startup/variable, body key (the env variable) and value (spec 001 §7). */
export async function updateServerStartupVariable(
  serverId: string,
  key: string,
  value: string,
): Promise<UpdatedStartupVariable> {
  const { data } = await http.put<{ attributes: WireEggVariable; meta: { startup_command: string } }>(
    `/api/client/servers/${serverId}/startup/variable`,
    { key, value },
  );
  return { variable: toEggVariable(data.attributes), invocation: data.meta.startup_command };
}

/** PUT .../settings/docker-image; the answer is not read (spec 001 §7). */
export async function setServerDockerImage(serverId: string, image: string): Promise<void> {
  await http.put(`/api/client/servers/${serverId}/settings/docker-image`, { docker_image: image });
}
