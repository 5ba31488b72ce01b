import { createHash } from 'node:crypto';
import type { User } from '../../db/types.ts';
import { atom, laravelJson } from '../../lib/time.ts';

/** `window.PterodactylUser` and the `user` of a successful sign-in (reference §6.2). */
export function userBootstrap(u: User) {
  return {
    uuid: u.uuid,
    username: u.username,
    email: u.email,
    name_first: u.name_first,
    name_last: u.name_last,
    language: u.language,
    root_admin: u.root_admin === 1,
    use_totp: u.use_totp === 1,
    gravatar: u.gravatar === 1,
    created_at: laravelJson(u.created_at),
    updated_at: laravelJson(u.updated_at),
  };
}

/** GET /api/client/account. */
export function accountAttributes(u: User) {
  return {
    id: u.id,
    admin: u.root_admin === 1,
    username: u.username,
    email: u.email,
    first_name: u.name_first,
    last_name: u.name_last,
    language: u.language,
  };
}

/** The client `user` schema (subusers, activity actors). */
export function clientUserAttributes(u: User) {
  return {
    uuid: u.uuid,
    username: u.username,
    email: u.email,
    image: `https://gravatar.com/avatar/${createHash('md5').update(u.email.toLowerCase()).digest('hex')}`,
    '2fa_enabled': u.use_totp === 1,
    created_at: atom(u.created_at),
  };
}
