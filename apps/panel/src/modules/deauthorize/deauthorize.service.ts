import type { Logger } from 'pino';
import type { DaemonClient } from '../../daemon-client/daemon-client.ts';
import type { Node, Server, User } from '../../db/types.ts';
import { HttpError } from '../../http/errors.ts';
import { userServerTokenId } from '../servers/token-id.ts';
import type { DeauthorizeRepository, NodeReach } from './deauthorize.repository.ts';

type Target = Pick<User, 'id' | 'uuid'>;

/**
 * Ends what a user holds on the daemons once their access shrinks (protocol §9.2b,
 * GHSA-8c39-xppg-479c, GHSA-hr7j-63v7-vj7g): open consoles close, SFTP sessions end, tokens already
 * handed out are refused. Called by the services after the change is written, so whatever the
 * user fetches next is issued under the new rules.
 *
 * - One `POST /api/deauthorize-user` per node (daemons of Wings 1.12+ and ours).
 * - A node without that route (older Wings answers 404) gets the older `ws/deny` of the user's
 *   token id on each server instead: its consoles refuse the next frame; its SFTP sessions stay.
 * - A node that cannot be reached does not undo or block the change: it is logged. What it still
 *   honours runs out by itself: websocket tokens within 10 minutes, signed URLs within 15, and a
 *   daemon that restarts refuses every token issued before its start.
 */
export class DeauthorizeService {
  constructor(
    private readonly repo: DeauthorizeRepository,
    private readonly daemon: DaemonClient,
    private readonly log: Logger,
  ) {}

  /** A subuser removed, or their permissions or folders changed: that server only. */
  async onServer(user: Target, server: Pick<Server, 'uuid'>, node: Node): Promise<void> {
    await this.onNode(user, { node, servers: [server.uuid] }, [server.uuid]);
  }

  /**
   * Runs `change` (a password change, the account's deletion, a root admin demoted), then ends the
   * user's sessions on every node where they reached a server before it. The reach is read first:
   * deleting an account deletes its subuser links.
   */
  async everywhere<T>(user: Target & Pick<User, 'root_admin'>, change: () => Promise<T>): Promise<T> {
    const reach = await this.repo.reach(user);
    const result = await change();
    await Promise.all(reach.map((r) => this.onNode(user, r)));
    return result;
  }

  /** `servers` absent: every server of the node (the daemon's own meaning of an absent list). */
  private async onNode(user: Target, reach: NodeReach, servers?: string[]): Promise<void> {
    try {
      await this.daemon.deauthorizeUser(reach.node, { user: user.uuid, ...(servers ? { servers } : {}) });
    } catch (err) {
      if (err instanceof HttpError && err.status === 404) return this.denyOnEach(user, reach);
      this.warn(err, user, reach.node);
    }
  }

  /** Older daemons: deny the user's token id (the same on every token of a server) server by server. */
  private async denyOnEach(user: Target, { node, servers }: NodeReach): Promise<void> {
    for (const uuid of servers) {
      try {
        await this.daemon.denyTokens(node, uuid, [userServerTokenId(user.id, uuid)]);
      } catch (err) {
        this.warn(err, user, node);
      }
    }
  }

  private warn(err: unknown, user: Target, node: Node): void {
    this.log.warn(
      { err, user: user.uuid, node: node.name },
      'the node could not be told to end the sessions of a user whose access changed',
    );
  }
}
