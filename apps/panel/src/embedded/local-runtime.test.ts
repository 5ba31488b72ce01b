import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/config.ts';
import { startTestPanel, type TestPanel } from '../test-support/panel.ts';
import { DAEMON_EXIT_DOCKER_UNUSABLE } from '@talon/shared';
import { explainDaemonExit } from './local-daemon.ts';
import { ensureLocalNode, writeDaemonConfig } from './local-node.ts';

// LOCAL_RUNTIME: how the panel's own daemon runs servers (bubblewrap processes, or Docker containers).
const dataDir = mkdtempSync(path.join(tmpdir(), 'talon-local-runtime-'));
let panel: TestPanel | undefined;
afterAll(async () => {
  await panel?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function configError(env: Record<string, string>): string {
  try {
    loadConfig({ DATA_DIR: dataDir, ...env });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('LOCAL_RUNTIME', () => {
  it('is process by default, docker when asked, and anything else stops the boot saying what it must be', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).localDaemon).toMatchObject({
      runtime: 'process',
      dockerHost: null,
    });
    expect(
      loadConfig({ DATA_DIR: dataDir, LOCAL_RUNTIME: 'docker', DOCKER_HOST: 'unix:///run/docker.sock' })
        .localDaemon,
    ).toMatchObject({ runtime: 'docker', dockerHost: 'unix:///run/docker.sock' });
    expect(configError({ LOCAL_RUNTIME: 'podman' })).toMatch(/LOCAL_RUNTIME.*must be process or docker/u);
    expect(configError({ LOCAL_RUNTIME: 'docker', DOCKER_HOST: '/var/run/docker.sock' })).toContain(
      'DOCKER_HOST: must be unix:///path/to/docker.sock, tcp://host:port or http(s)://host:port when LOCAL_RUNTIME is docker',
    );
    // The Docker CLI's ssh:// address is no concern of a panel that runs processes: ignored.
    expect(loadConfig({ DATA_DIR: dataDir, DOCKER_HOST: 'ssh://me@build-box' }).localDaemon).toMatchObject({
      runtime: 'process',
      dockerHost: null,
    });
  });

  it("becomes the local daemon's runtime.driver, with host networking and DOCKER_HOST's engine", async () => {
    panel = await startTestPanel();
    const { node } = await ensureLocalNode(panel.ctx, {
      daemonPort: 18091,
      sftpPort: 12032,
      ports: [41100, 41101],
    });
    const written = (ctx: TestPanel['ctx']) =>
      JSON.parse(readFileSync(writeDaemonConfig(ctx, node, path.join(dataDir, 'daemon')), 'utf8')) as {
        runtime: { driver: string };
        docker: { host: string; network: { network_mode: string } };
      };

    expect(written(panel.ctx).runtime.driver).toBe('process');

    const docker = written({
      ...panel.ctx,
      config: {
        ...panel.ctx.config,
        localDaemon: {
          ...panel.ctx.config.localDaemon,
          runtime: 'docker',
          dockerHost: 'unix:///tmp/engine.sock',
        },
      },
    });
    expect(docker.runtime.driver).toBe('docker');
    expect(docker.docker).toEqual({ host: 'unix:///tmp/engine.sock', network: { network_mode: 'host' } });
  });

  it('explains the daemon exit that means Docker cannot be used, for the supervisor log', () => {
    expect(explainDaemonExit(DAEMON_EXIT_DOCKER_UNUSABLE)).toBe(
      'LOCAL_RUNTIME is docker, but the Docker engine cannot be used (the daemon logged why just before): ' +
        'start Docker, correct DOCKER_HOST, or set LOCAL_RUNTIME=process; trying again later',
    );
  });
});
