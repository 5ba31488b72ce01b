import { http } from './http.ts';

/** POST .../settings/rename (spec 001 §7); the description is sent too, so it can be cleared. */
export async function renameServer(serverId: string, name: string, description: string): Promise<void> {
  await http.post(`/api/client/servers/${serverId}/settings/rename`, { name, description });
}

/** POST .../settings/reinstall: the daemon wipes nothing but runs the egg's install script again. */
export async function reinstallServer(serverId: string): Promise<void> {
  await http.post(`/api/client/servers/${serverId}/settings/reinstall`);
}
