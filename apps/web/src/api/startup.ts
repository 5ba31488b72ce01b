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
  /** the egg's named start-up commands (several for PLCN_v3 eggs; our extension, issue 17) */
  startupCommands: { name: string; command: string }[];
  /** the one the server runs; null when an administrator wrote the command by hand */
  startupCommandName: string | null;
}

/** What PUT .../startup/command answers: the command now in use, rendered and by name. */
export interface ChosenStartupCommand {
  invocation: string;
  startupCommandName: string | null;
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
    meta: {
      startup_command: string;
      docker_images: Record<string, string> | [];
      startup_commands?: { name: string; command: string }[];
      startup_command_name?: string | null;
    };
  }>(`/api/client/servers/${serverId}/startup`);
  return {
    invocation: data.meta.startup_command,
    startupCommands: data.meta.startup_commands ?? [],
    startupCommandName: data.meta.startup_command_name ?? null,
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

/** PUT .../startup/command (our extension): run another of the egg's named start-up commands. */
export async function setServerStartupCommand(serverId: string, name: string): Promise<ChosenStartupCommand> {
  const { data } = await http.put<{
    attributes: { startup_command: string; startup_command_name: string | null };
  }>(`/api/client/servers/${serverId}/startup/command`, { name });
  return {
    invocation: data.attributes.startup_command,
    startupCommandName: data.attributes.startup_command_name,
  };
}
