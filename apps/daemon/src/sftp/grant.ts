import { can } from '@talon/shared';
import type { Server } from '../servers/server.ts';
import { denied, unsupported } from './status.ts';

/** What the panel granted at login (§8.12): each request checks it, and suspension, anew. */
export class Grant {
  constructor(
    private readonly server: Server,
    private readonly permissions: string[],
    private readonly readOnly: boolean,
  ) {}

  need(permission: string): void {
    if (this.server.suspended || !can(this.permissions, permission)) throw denied();
  }

  /** A change: also refused ("unsupported") on a read-only node. */
  needWrite(permission: string): void {
    if (this.readOnly) throw unsupported();
    this.need(permission);
  }

  /** Writing through a handle opened before: refused once the server is suspended. */
  stillActive(): void {
    if (this.server.suspended) throw denied();
  }
}
