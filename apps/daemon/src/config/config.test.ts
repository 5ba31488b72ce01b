import { describe, expect, it } from 'vitest';
import { ConfigError, containerUser, parseConfig } from './config.ts';

const minimal = { token_id: 'id', token: 'secret', remote: 'http://127.0.0.1:8080' };

function problems(over: Record<string, unknown>): string {
  try {
    parseConfig({ ...minimal, ...over });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('daemon configuration: runtime and docker', () => {
  it('defaults to the process runtime, with Wings’ docker defaults ready for a switch', () => {
    const config = parseConfig(minimal);
    expect(config.runtime.driver).toBe('process');
    expect(config.docker).toEqual({
      host: '',
      network: {
        network_mode: 'talon_nw',
        name: 'talon_nw',
        interface: '172.18.0.1',
        dns: ['1.1.1.1', '1.0.0.1'],
      },
      registries: {},
      tmpfs_size: 100,
      container_pid_limit: 512,
      installer_limits: { memory: 1024, cpu: 100 },
    });
    expect(containerUser(config)).toEqual({ uid: 988, gid: 988 });
  });

  it('takes a docker runtime with its engine, host network, registries and own container user', () => {
    const config = parseConfig({
      ...minimal,
      runtime: { driver: 'docker', uid: 1500, gid: 1500 },
      docker: {
        host: 'unix:///run/user/1000/docker.sock',
        network: { network_mode: 'host' },
        registries: { 'ghcr.io': { username: 'u', password: 'p' } },
        tmpfs_size: 64,
        container_pid_limit: 256,
        user: { uid: 2000, gid: 2001 },
      },
    });
    expect(config.runtime.driver).toBe('docker');
    expect(config.docker.host).toBe('unix:///run/user/1000/docker.sock');
    expect(config.docker.network.network_mode).toBe('host');
    expect(config.docker.network.name).toBe('talon_nw');
    expect(config.docker.registries['ghcr.io']).toEqual({ username: 'u', password: 'p' });
    expect(containerUser(config)).toEqual({ uid: 2000, gid: 2001 });
    for (const host of ['tcp://10.0.0.2:2375', 'https://docker.lan:2376', ''])
      expect(parseConfig({ ...minimal, docker: { host } }).docker.host).toBe(host);
  });

  it('names each bad value and what it must be', () => {
    expect(problems({ runtime: { driver: 'podman' } })).toMatch(/runtime\.driver: .*"process".*"docker"/u);
    expect(problems({ docker: { host: '/var/run/docker.sock' } })).toContain(
      'docker.host: must be unix:///path/to/docker.sock, tcp://host:port or http(s)://host:port',
    );
    expect(problems({ docker: { network: { network_mode: 'container:abc' } } })).toContain(
      'docker.network.network_mode: must be host, bridge or the name of a Docker network',
    );
    expect(problems({ docker: { network: { network_mode: 'none' } } })).toContain(
      'docker.network.network_mode: none would leave servers without a network',
    );
    expect(problems({ docker: { registries: { 'ghcr.io': { username: 'u' } } } })).toContain(
      'docker.registries.ghcr.io.password',
    );
    expect(problems({ docker: { container_pid_limit: 0 } })).toContain('docker.container_pid_limit');
    expect(problems({ docker: { tmpfs_size: 'big' } })).toContain('docker.tmpfs_size');
    expect(problems({ docker: { user: { uid: 0, gid: 0 } } })).toContain('docker.user.uid');
  });
});
