import type { BadgeTone } from '../components/StatusBadge.tsx';

/** A server's state for the admin lists: the status words' key in admin.json and a colour. */
export function serverStatus(status: string | null, suspended: boolean): { key: string; tone: BadgeTone } {
  if (suspended || status === 'suspended') return { key: 'servers.status.suspended', tone: 'warning' };
  switch (status) {
    case 'installing':
      return { key: 'servers.status.installing', tone: 'info' };
    case 'install_failed':
    case 'reinstall_failed':
      return { key: 'servers.status.install_failed', tone: 'error' };
    case 'restoring_backup':
      return { key: 'servers.status.restoring_backup', tone: 'info' };
    default:
      return { key: 'servers.status.none', tone: 'ok' };
  }
}

/** The `filter[status]` values of the servers list (contract "Lists"). */
export const SERVER_STATUS_FILTERS = [
  'installing',
  'install_failed',
  'suspended',
  'restoring_backup',
  'none',
] as const;
