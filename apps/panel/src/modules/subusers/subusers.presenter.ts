import type { SubuserWire } from '@talon/shared/validation/subusers';
import { atom } from '../../lib/time.ts';
import { clientUserAttributes } from '../users/users.presenter.ts';
import type { SubuserWithUser } from './subusers.repository.ts';

/**
 * The `server_subuser` object (reference §3.1): the client `user` attributes, then `permissions`
 * as stored. `file_paths` (our extension) is only present when the subuser is limited to folders,
 * so clients of the original see exactly the reference's object for everyone else.
 */
export function subuserAttributes({ user, subuser }: SubuserWithUser): SubuserWire {
  const attributes: SubuserWire = {
    ...clientUserAttributes(user),
    // Accounts always have a creation time; `atom` only answers null for a missing one.
    created_at: atom(user.created_at) ?? '',
    permissions: JSON.parse(subuser.permissions) as string[],
  };
  if (subuser.file_paths !== null) attributes.file_paths = JSON.parse(subuser.file_paths) as string[];
  return attributes;
}
