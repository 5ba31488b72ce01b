import type { User } from '../../db/types.ts';
import { atom } from '../../lib/time.ts';

/** The application API's `user` object (reference §5.1); timestamps in UTC. */
export function applicationUserAttributes(u: User) {
  return {
    id: u.id,
    external_id: u.external_id,
    uuid: u.uuid,
    username: u.username,
    email: u.email,
    first_name: u.name_first,
    last_name: u.name_last,
    language: u.language,
    root_admin: u.root_admin === 1,
    '2fa': u.use_totp === 1,
    created_at: atom(u.created_at),
    updated_at: atom(u.updated_at),
  };
}
