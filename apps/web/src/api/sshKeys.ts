import { parseWireDate } from '../lib/dates.ts';
import { http } from './http.ts';

/** An SSH key of the account, used to sign in to SFTP (reference §3.1 `ssh_key`). */
export interface SshKey {
  name: string;
  /** SHA-256 of the key, base64 without padding (43 characters). */
  fingerprint: string;
  publicKey: string;
  createdAt: Date | null;
}

interface WireSshKey {
  name: string;
  fingerprint: string;
  public_key: string;
  created_at: string | null;
}

function toSshKey(wire: WireSshKey): SshKey {
  return {
    name: wire.name,
    fingerprint: wire.fingerprint,
    publicKey: wire.public_key,
    createdAt: parseWireDate(wire.created_at),
  };
}

const BASE = '/api/client/account/ssh-keys';

export async function getSshKeys(): Promise<SshKey[]> {
  const { data } = await http.get<{ data: { attributes: WireSshKey }[] }>(BASE);
  return data.data.map(({ attributes }) => toSshKey(attributes));
}

/** Adds a key; the panel checks it and answers it with its fingerprint. */
export async function createSshKey(name: string, publicKey: string): Promise<SshKey> {
  const { data } = await http.post<{ attributes: WireSshKey }>(BASE, { name, public_key: publicKey });
  return toSshKey(data.attributes);
}

/** Removes the key with this fingerprint (the panel answers 204 even when none matched). */
export async function deleteSshKey(fingerprint: string): Promise<void> {
  await http.post(`${BASE}/remove`, { fingerprint });
}
