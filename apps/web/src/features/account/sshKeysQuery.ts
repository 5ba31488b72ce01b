import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getSshKeys, type SshKey } from '../../api/sshKeys.ts';

export const SSH_KEYS_QUERY = ['account', 'ssh-keys'] as const;
/** Flash key of the SSH Keys page. */
export const SSH_KEYS_FLASH = 'account:ssh-keys';

export function useSshKeys() {
  return useQuery({ queryKey: SSH_KEYS_QUERY, queryFn: getSshKeys });
}

/** Edits the cached list in place after an add or a removal. */
export function useSshKeysCache() {
  const client = useQueryClient();
  return (update: (keys: SshKey[]) => SshKey[]) =>
    client.setQueryData<SshKey[]>(SSH_KEYS_QUERY, (keys) => update(keys ?? []));
}

/** How fingerprints are written by `ssh-keygen -l` and SFTP clients, so they can be compared. */
export function fingerprintText(fingerprint: string): string {
  return `SHA256:${fingerprint}`;
}
