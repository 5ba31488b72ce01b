import { NODE_SETUP_TOKEN_MINUTES, type NodeSetupToken } from '@talon/shared/admin/node-wire';
import { HttpError } from '../../http/errors.ts';
import { randomAlnum, sha256Hex } from '../../lib/crypto.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import { nodeConfiguration } from './nodes.configuration.ts';
import type { NodeSetupRepository } from './node-setup.repository.ts';
import type { NodesService } from './nodes.service.ts';

/** Characters of a setup token: 48 of [A-Za-z0-9], about 285 bits. */
const TOKEN_LENGTH = 48;
const TOKEN_SHAPE = /^[A-Za-z0-9]{48}$/u;

export const SETUP_TOKEN_UNKNOWN =
  "This setup token is not valid: it was already used or never existed. Create a new one on the node's page in the admin area.";
export const SETUP_TOKEN_EXPIRED = `This setup token has expired (they last ${NODE_SETUP_TOKEN_MINUTES} minutes). Create a new one on the node's page in the admin area.`;

/** Single-quoted for a POSIX shell when it holds anything but plain URL characters. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9:/._@%+=,-]+$/u.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * One-line node setup: a root admin mints a short-lived token for a node; the daemon's `configure`
 * command on the new machine trades it, once, for the node's configuration document. Only the
 * token's hash is stored, and the lookup is by that hash, so the stored value reveals nothing and
 * timing reveals nothing about the token text.
 */
export class NodeSetupService {
  constructor(
    private readonly repo: NodeSetupRepository,
    private readonly nodes: NodesService,
    private readonly activity: ActivityService,
    private readonly appKey: Buffer,
    private readonly panelUrl: string,
    /** The clock (tests move it instead of waiting). */
    private readonly now: () => number = Date.now,
  ) {}

  async mint(nodeId: number, actor: ActivityActor): Promise<NodeSetupToken> {
    const node = await this.nodes.get(nodeId);
    const now = this.now();
    const expires = new Date(now + NODE_SETUP_TOKEN_MINUTES * 60_000).toISOString();
    await this.repo.deleteExpired(new Date(now).toISOString());
    const token = randomAlnum(TOKEN_LENGTH);
    await this.repo.insert({
      node_id: node.id,
      token_hash: sha256Hex(token),
      created_by: actor.userId,
      expires_at: expires,
      created_at: new Date(now).toISOString(),
    });
    await this.activity.log('node:setup-token.create', actor, [{ type: 'node', id: node.id }], {
      expires_at: expires,
    });
    return {
      token,
      expires_at: expires,
      command: `npm run -s daemon -- configure --panel-url ${shellWord(this.panelUrl)} --token ${token}`,
    };
  }

  /**
   * The node's configuration for a valid token, which is used up by this call. Unknown or used:
   * 404; expired: 410 (and it is gone as well).
   */
  async redeem(token: string, actor: ActivityActor): Promise<ReturnType<typeof nodeConfiguration>> {
    const unknown = new HttpError(404, 'NotFoundHttpException', SETUP_TOKEN_UNKNOWN);
    if (!TOKEN_SHAPE.test(token)) throw unknown;
    const row = await this.repo.take(sha256Hex(token));
    if (!row) throw unknown;
    if (Date.parse(row.expires_at) <= this.now()) {
      throw new HttpError(410, 'GoneHttpException', SETUP_TOKEN_EXPIRED);
    }
    const node = await this.nodes.get(row.node_id);
    await this.activity.log('node:setup-token.redeem', actor, [{ type: 'node', id: node.id }]);
    return nodeConfiguration(node, this.appKey, this.panelUrl);
  }
}
