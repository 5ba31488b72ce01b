import type { Node } from '../../db/types.ts';
import { decrypt } from '../../lib/crypto.ts';

/**
 * The daemon configuration of a node as JSON (the Wings `config.yml` fields the panel knows), for
 * `GET /nodes/{id}/configuration` and `node:configure`. It carries the plain daemon secret.
 */
export function nodeConfiguration(node: Node, appKey: Buffer, panelUrl: string) {
  const fqdn = node.fqdn.toLowerCase();
  return {
    debug: false,
    uuid: node.uuid,
    token_id: node.daemon_token_id,
    token: decrypt(appKey, node.daemon_token),
    api: {
      host: '0.0.0.0',
      port: node.daemon_listen,
      ssl: {
        // Behind a TLS-terminating proxy the daemon itself speaks plain HTTP.
        enabled: node.scheme === 'https' && node.behind_proxy !== 1,
        cert: `/etc/letsencrypt/live/${fqdn}/fullchain.pem`,
        key: `/etc/letsencrypt/live/${fqdn}/privkey.pem`,
      },
      upload_limit: node.upload_size,
    },
    system: { data: node.daemon_base, sftp: { bind_port: node.daemon_sftp } },
    allowed_mounts: [] as string[],
    remote: panelUrl,
  };
}
