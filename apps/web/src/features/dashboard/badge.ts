import type { ServerResources, ServerSummary } from '../../api/servers.ts';
import { installFailed } from '../server/installFailed.ts';

export type CardBadge =
  | 'Suspended'
  | 'Connection Error'
  | 'Transferring'
  | 'Installing'
  | 'Install Failed'
  | 'Restoring Backup'
  | 'Unavailable'
  | 'loading'
  | null;

/**
 * What a server card shows instead of its figures (spec 000 §2). `null` means the figures are
 * shown; `loading` means a spinner.
 */
export function cardBadge(
  server: Pick<ServerSummary, 'status' | 'isTransferring'>,
  resources: { data?: ServerResources; isError: boolean; isLoading: boolean },
): CardBadge {
  if (server.status === 'suspended' || resources.data?.isSuspended) return 'Suspended';
  // Not in the spec's list (issue 24): a failed install is not a connection problem, nor "Installing".
  if (installFailed(server.status)) return 'Install Failed';
  if (resources.data) return null;
  if (resources.isError) return 'Connection Error';
  if (server.isTransferring) return 'Transferring';
  if (server.status === 'installing') return 'Installing';
  if (server.status === 'restoring_backup') return 'Restoring Backup';
  if (resources.isLoading) return 'loading';
  return 'Unavailable';
}

/** Colour of the card's status bar (spec 000 §2): offline red, running green, anything else yellow. */
export function statusColour(state: string | undefined): 'red' | 'green' | 'yellow' {
  if (state === 'offline') return 'red';
  if (state === 'running') return 'green';
  return 'yellow';
}
