/**
 * The subuser permission catalogue (`group.key`), served by GET /api/client/permissions and used by
 * every permission check. Group order and keys follow the Pterodactyl contract; the descriptions
 * are our own words (see docs/compatibility.md).
 */
export interface PermissionGroup {
  description: string;
  keys: Record<string, string>;
}

export const PERMISSION_CATALOGUE = {
  websocket: {
    description: 'Lets a user open the live connection to the server: console output and live statistics.',
    keys: {
      connect: 'Open the live connection to see console output and resource usage as it happens.',
    },
  },
  control: {
    description: "Controls the server's power state and lets a user type into its console.",
    keys: {
      console: 'Send commands to the server through the console.',
      start: 'Start the server when it is stopped.',
      stop: 'Stop or kill the server while it is running.',
      restart: 'Restart the server. This can start a stopped server but never leaves it stopped.',
    },
  },
  user: {
    description:
      'Manages the other people who can use this server. Nobody can edit their own access or grant more than they hold.',
    keys: {
      create: 'Invite new people to the server.',
      read: 'See who has access to the server and what they may do.',
      update: 'Change what other people may do on the server.',
      delete: 'Remove other people from the server.',
    },
  },
  file: {
    description: "Access to the server's files.",
    keys: {
      create: 'Create, upload, copy, unarchive and download files from the internet into the server.',
      read: 'See the files and folders in the server, but not what is in them.',
      'read-content': 'Open and download files.',
      update: 'Rename, move and change the permissions of files and folders.',
      delete: 'Delete files and folders.',
      archive: 'Create archives of files and folders.',
      sftp: 'Sign in over SFTP. The other file permissions still decide what can be done there.',
    },
  },
  backup: {
    description: "Manages the server's backups.",
    keys: {
      create: 'Start new backups.',
      read: 'See the backups and their details.',
      delete: 'Delete backups, and lock or unlock them.',
      download: 'Download backups. A backup holds every file of the server.',
      restore: 'Restore a backup. This can replace or delete every file of the server.',
    },
  },
  allocation: {
    description: 'Manages the network ports (allocations) of the server.',
    keys: {
      read: 'See every allocation of the server. Without it only the primary address is shown.',
      create: 'Add allocations to the server.',
      update: 'Change the primary allocation and edit allocation notes.',
      delete: 'Remove allocations from the server.',
    },
  },
  startup: {
    description: 'Manages how the server starts.',
    keys: {
      read: "See the server's startup variables.",
      update: 'Change the startup variables that may be edited.',
      'docker-image': 'Switch between the images the template offers.',
    },
  },
  database: {
    description: "Manages the server's databases.",
    keys: {
      create: 'Create databases.',
      read: 'See the databases of the server.',
      update: 'Rotate database passwords. The new password is only shown with the view password permission.',
      delete: 'Delete databases.',
      view_password: 'See database passwords.',
    },
  },
  schedule: {
    description: "Manages the server's schedules.",
    keys: {
      create: 'Create schedules.',
      read: 'See schedules and their tasks.',
      update: 'Edit schedules and their tasks, and run a schedule now.',
      delete: 'Delete schedules.',
    },
  },
  settings: {
    description: "Manages the server's settings.",
    keys: {
      rename: 'Rename the server and change its description.',
      reinstall: 'Reinstall the server.',
    },
  },
  activity: {
    description: "Access to the server's activity log.",
    keys: {
      read: 'Read the activity log of the server.',
    },
  },
} as const satisfies Record<string, PermissionGroup>;

type Catalogue = typeof PERMISSION_CATALOGUE;
export type PermissionKey = {
  [G in keyof Catalogue]: `${G & string}.${keyof Catalogue[G]['keys'] & string}`;
}[keyof Catalogue];

/** Every assignable permission key, in catalogue order. */
export const ALL_PERMISSION_KEYS: readonly PermissionKey[] = Object.entries(PERMISSION_CATALOGUE).flatMap(
  ([group, { keys }]) => Object.keys(keys).map((key) => `${group}.${key}` as PermissionKey),
);

/** Granted to server owners and root admins: everything. */
export const WILDCARD = '*';
/** Extra grants only root admins receive in websocket tokens. */
export const ADMIN_SOCKET_PERMISSIONS = [
  'admin.websocket.errors',
  'admin.websocket.install',
  'admin.websocket.transfer',
] as const;

/**
 * The one permission check. `held` is what the actor holds; `wanted` is one key or several (all must pass).
 * A first held entry `*` grants everything. A wanted key ending in `.*` (e.g. `file.*`, used to gate a
 * whole tab) passes when any held key shares its group; any other key needs an exact match.
 */
export function can(held: readonly string[], wanted: string | readonly string[]): boolean {
  if (held[0] === WILDCARD) return true;
  const list = typeof wanted === 'string' ? [wanted] : wanted;
  return list.every((want) => {
    if (!want.endsWith('.*')) return held.includes(want);
    const prefix = want.slice(0, -1);
    return held.some((h) => h.startsWith(prefix));
  });
}
