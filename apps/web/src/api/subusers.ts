import type { SubuserWire } from '@talon/shared/validation/subusers';
import { parseWireDate } from '../lib/dates.ts';
import { http } from './http.ts';

/** Subuser (spec 001 §3), plus our `file_paths` extension (folders the file permissions are limited to). */
export interface Subuser {
  uuid: string;
  username: string;
  email: string;
  /** Avatar address, already asking for size 400 (spec 001 §9). */
  image: string;
  twoFactorEnabled: boolean;
  createdAt: Date | null;
  permissions: string[];
  /** null: every folder. */
  filePaths: string[] | null;
}

/** Avatar size the list asks for (spec 001 §9). */
export const AVATAR_SIZE = 400;

function withSize(image: string): string {
  if (!image) return image;
  return `${image}${image.includes('?') ? '&' : '?'}s=${AVATAR_SIZE}`;
}

export function toSubuser(wire: SubuserWire): Subuser {
  return {
    uuid: wire.uuid,
    username: wire.username,
    email: wire.email,
    image: withSize(wire.image),
    twoFactorEnabled: wire['2fa_enabled'],
    createdAt: parseWireDate(wire.created_at),
    permissions: wire.permissions,
    filePaths: wire.file_paths ?? null,
  };
}

/** What the create/edit modal sends (spec 001 §7): email, permissions, and the folders or null. */
export interface SubuserInput {
  email: string;
  permissions: string[];
  filePaths: string[] | null;
}

const base = (serverId: string) => `/api/client/servers/${serverId}/users`;

function body(input: SubuserInput) {
  return { email: input.email, permissions: input.permissions, file_paths: input.filePaths };
}

/** GET .../users. */
export async function getSubusers(serverId: string): Promise<Subuser[]> {
  const { data } = await http.get<{ data: { attributes: SubuserWire }[] }>(base(serverId));
  return data.data.map(({ attributes }) => toSubuser(attributes));
}

/** POST .../users: invites `email` (the panel creates the account when there is none). */
export async function createSubuser(serverId: string, input: SubuserInput): Promise<Subuser> {
  const { data } = await http.post<{ attributes: SubuserWire }>(base(serverId), body(input));
  return toSubuser(data.attributes);
}

/** POST .../users/{uuid}: new permissions (and folders) of an existing subuser. */
export async function updateSubuser(serverId: string, uuid: string, input: SubuserInput): Promise<Subuser> {
  const { data } = await http.post<{ attributes: SubuserWire }>(`${base(serverId)}/${uuid}`, body(input));
  return toSubuser(data.attributes);
}

/** DELETE .../users/{uuid}. */
export async function deleteSubuser(serverId: string, uuid: string): Promise<void> {
  await http.delete(`${base(serverId)}/${uuid}`);
}
