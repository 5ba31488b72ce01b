import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/config.ts';
import { startTestPanel, type TestPanel } from '../test-support/panel.ts';
import { ensureLocalNode, writeDaemonConfig } from './local-node.ts';

// LOCAL_REMOTE_DOWNLOAD_NETWORKS: the internal networks the local daemon's `files/pull` may reach
// (all-in-one installs have no daemon configuration file of their own to edit).
const dataDir = mkdtempSync(path.join(tmpdir(), 'talon-pull-networks-'));
let panel: TestPanel | undefined;
afterAll(async () => {
  await panel?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('LOCAL_REMOTE_DOWNLOAD_NETWORKS', () => {
  it('is a comma-separated CIDR list, empty by default, and a bad entry stops the boot', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).localDaemon.remoteDownloadNetworks).toEqual([]);
    expect(
      loadConfig({ DATA_DIR: dataDir, LOCAL_REMOTE_DOWNLOAD_NETWORKS: ' 192.168.10.0/24, fd00:1::/64 ,' })
        .localDaemon.remoteDownloadNetworks,
    ).toEqual(['192.168.10.0/24', 'fd00:1::/64']);
    for (const bad of ['192.168.10.1', '10.0.0.0/33', 'mirror.lan/24', 'fd00::/129']) {
      expect(() => loadConfig({ DATA_DIR: dataDir, LOCAL_REMOTE_DOWNLOAD_NETWORKS: bad }), bad).toThrow(
        ConfigError,
      );
    }
  });

  it("becomes the local daemon's api.remote_download.allowed_networks", async () => {
    panel = await startTestPanel();
    const ctx = {
      ...panel.ctx,
      config: {
        ...panel.ctx.config,
        localDaemon: { ...panel.ctx.config.localDaemon, remoteDownloadNetworks: ['10.20.0.0/16'] },
      },
    };
    const { node } = await ensureLocalNode(ctx, {
      daemonPort: 18081,
      sftpPort: 12022,
      ports: [41000, 41001],
    });
    const file = writeDaemonConfig(ctx, node, path.join(dataDir, 'daemon'));
    const written = JSON.parse(readFileSync(file, 'utf8')) as { api: { remote_download: unknown } };
    expect(written.api.remote_download).toEqual({ allowed_networks: ['10.20.0.0/16'] });
  });
});
