import { describe, expect, it } from 'vitest';
import type { LaunchSpec } from '../driver.ts';
import { payloadsOf } from './container-process.ts';
import { containerOptions, type ContainerSettings } from './container-spec.ts';
import { memoryWithOverhead, resourceConfig } from './limits.ts';
import { sampleOf } from './stats.ts';

const MIB = 1024 * 1024;
const UUID = '7f5e1c9a-2b3d-4e5f-8a9b-0c1d2e3f4a5b';

const settings = (over: Partial<ContainerSettings> = {}): ContainerSettings => ({
  networkMode: 'talon_nw',
  interfaceAddress: '172.18.0.1',
  dns: ['1.1.1.1'],
  tmpfsMb: 100,
  pidLimit: 512,
  installerMinimum: { memoryMb: 1024, cpuPercent: 100 },
  user: { uid: 988, gid: 988 },
  ...over,
});

const serverSpec = (over: Partial<LaunchSpec> = {}): LaunchSpec => ({
  id: UUID,
  kind: 'server',
  serverDir: `/srv/volumes/${UUID}`,
  argv: ['/bin/sh', '-c', 'java -jar server.jar'],
  startup: 'java -jar server.jar',
  env: { SERVER_IP: '127.0.0.1', SERVER_PORT: '25565', PATH: '/usr/bin:/bin', SECRET_SEED: '$(rm -rf /)' },
  limits: { memoryBytes: 1024 * MIB, swapBytes: 0, pids: 64, cpuPercent: 150 },
  image: 'ghcr.io/pterodactyl/yolks:java_21',
  allocations: { '127.0.0.1': [25565, 0, 70000], '10.0.0.5': [27015] },
  build: { ioWeight: 500, oomDisabled: true, cpuset: '0-1' },
  ...over,
});

describe('memory overhead (Wings protocol §8.13)', () => {
  it('gives 15 % up to 2 GiB, 10 % up to 4 GiB, 5 % above, nothing for unlimited', () => {
    expect(memoryWithOverhead(1024 * MIB)).toBe(Math.round(1024 * MIB * 1.15));
    expect(memoryWithOverhead(2048 * MIB)).toBe(Math.round(2048 * MIB * 1.15));
    expect(memoryWithOverhead(4096 * MIB)).toBe(Math.round(4096 * MIB * 1.1));
    expect(memoryWithOverhead(8192 * MIB)).toBe(Math.round(8192 * MIB * 1.05));
    expect(memoryWithOverhead(0)).toBe(0);
  });

  it('reserves the build limit, adds swap on top of the hard limit, unlimited swap as -1', () => {
    expect(resourceConfig({ memoryBytes: 100 * MIB, swapBytes: 50 * MIB, pids: 10, cpuPercent: 0 })).toEqual({
      Memory: Math.round(100 * MIB * 1.15),
      MemoryReservation: 100 * MIB,
      MemorySwap: Math.round(100 * MIB * 1.15) + 50 * MIB,
      CpuQuota: 0,
      CpuPeriod: 0,
      PidsLimit: 10,
    });
    expect(resourceConfig({ memoryBytes: 100 * MIB, swapBytes: -1, pids: 0, cpuPercent: 250 })).toMatchObject(
      {
        MemorySwap: -1,
        CpuQuota: 250_000,
        CpuPeriod: 100_000,
        PidsLimit: 0,
      },
    );
  });
});

describe('server container options', () => {
  it('bridge network: every allocation published TCP and UDP, 127.0.0.1 on the Docker interface, bad ports skipped', () => {
    const o = containerOptions(serverSpec(), 'img', settings(), true);
    expect(o.HostConfig?.NetworkMode).toBe('talon_nw');
    expect(o.HostConfig?.PortBindings).toEqual({
      '25565/tcp': [{ HostIp: '172.18.0.1', HostPort: '25565' }],
      '25565/udp': [{ HostIp: '172.18.0.1', HostPort: '25565' }],
      '27015/tcp': [{ HostIp: '10.0.0.5', HostPort: '27015' }],
      '27015/udp': [{ HostIp: '10.0.0.5', HostPort: '27015' }],
    });
    expect(Object.keys(o.ExposedPorts ?? {}).sort()).toEqual([
      '25565/tcp',
      '25565/udp',
      '27015/tcp',
      '27015/udp',
    ]);
    expect(o.Env).toContain('SERVER_IP=172.18.0.1');
    expect(o.HostConfig?.Dns).toEqual(['1.1.1.1']);
  });

  it('host network: nothing published, SERVER_IP kept, no DNS override', () => {
    const o = containerOptions(serverSpec(), 'img', settings({ networkMode: 'host' }), true);
    expect(o.HostConfig?.NetworkMode).toBe('host');
    expect(o.HostConfig?.PortBindings).toBeUndefined();
    expect(o.Env).toContain('SERVER_IP=127.0.0.1');
    expect(o.HostConfig?.Dns).toBeUndefined();
  });

  it('an image with its own entrypoint gets the expanded start command as STARTUP; a bare image runs argv', () => {
    const yolk = containerOptions(serverSpec(), 'img', settings(), true);
    expect(yolk.Cmd).toBeUndefined();
    expect(yolk.Env).toContain('STARTUP=java -jar server.jar');
    const bare = containerOptions(serverSpec(), 'img', settings(), false);
    expect(bare.Cmd).toEqual(['/bin/sh', '-c', 'java -jar server.jar']);
  });

  it('egg values travel only in Env (verbatim), the host PATH never; locked down and limited', () => {
    const o = containerOptions(serverSpec(), 'img', settings(), true);
    expect(o.Env).toContain('SECRET_SEED=$(rm -rf /)');
    expect(o.Env?.some((e) => e.startsWith('PATH='))).toBe(false);
    expect(o.name).toBe(UUID);
    expect(o.User).toBe('988:988');
    expect(o.HostConfig).toMatchObject({
      Privileged: false,
      ReadonlyRootfs: true,
      SecurityOpt: ['no-new-privileges'],
      CapDrop: ['ALL'],
      PidsLimit: 512,
      OomKillDisable: true,
      BlkioWeight: 500,
      CpusetCpus: '0-1',
      CpuQuota: 150_000,
      Tmpfs: { '/tmp': 'rw,exec,nosuid,size=100M' },
      Mounts: [{ Type: 'bind', Source: `/srv/volumes/${UUID}`, Target: '/home/container', ReadOnly: false }],
    });
    expect(JSON.stringify(o)).not.toContain('docker.sock');
  });
});

describe('installer container options', () => {
  const install = (over: Partial<LaunchSpec> = {}) =>
    serverSpec({
      kind: 'install',
      installDir: `/srv/tmp/${UUID}`,
      entrypoint: '/bin/ash',
      limits: { memoryBytes: 256 * MIB, swapBytes: -1, pids: 64, cpuPercent: 50 },
      ...over,
    });

  it('is <uuid>_installer, runs the script with the egg interpreter, mounts /mnt/server and /mnt/install, never privileged', () => {
    const o = containerOptions(install(), 'installer-img', settings(), true);
    expect(o.name).toBe(`${UUID}_installer`);
    expect(o.Cmd).toEqual(['ash', '/mnt/install/install.sh']);
    expect(o.User).toBeUndefined();
    expect(o.HostConfig?.Privileged).toBe(false);
    expect(o.HostConfig?.Mounts?.map((m) => [m.Source, m.Target])).toEqual([
      [`/srv/volumes/${UUID}`, '/mnt/server'],
      [`/srv/tmp/${UUID}`, '/mnt/install'],
    ]);
    expect(o.HostConfig?.PortBindings).toBeUndefined();
  });

  it('gets at least the installer floor and no process limit', () => {
    const o = containerOptions(install(), 'installer-img', settings(), true);
    expect(o.HostConfig).toMatchObject({
      MemoryReservation: 1024 * MIB,
      CpuQuota: 100_000,
      PidsLimit: 0,
    });
  });

  it('refuses an interpreter that is not bash, ash or sh', () => {
    expect(() => containerOptions(install({ entrypoint: 'sh -c "$(id)"' }), 'i', settings(), true)).toThrow(
      /not allowed/,
    );
  });
});

describe('stats frames', () => {
  it('memory without inactive page cache (cgroup v1 and v2), CPU ns, network summed over interfaces', () => {
    expect(
      sampleOf({
        cpu_stats: { cpu_usage: { total_usage: 5_000_000 } },
        memory_stats: { usage: 100, stats: { total_inactive_file: 30 } },
        networks: { eth0: { rx_bytes: 10, tx_bytes: 20 }, eth1: { rx_bytes: 1, tx_bytes: 2 } },
      }),
    ).toEqual({ cpuNs: 5_000_000, memoryBytes: 70, rxBytes: 11, txBytes: 22 });
    expect(sampleOf({ memory_stats: { usage: 100, stats: { inactive_file: 40 } } }).memoryBytes).toBe(60);
    expect(sampleOf({})).toEqual({ cpuNs: 0, memoryBytes: 0, rxBytes: 0, txBytes: 0 });
  });
});

describe('container log replay', () => {
  it('splits the multiplexed log into its payloads, stdout and stderr alike, ignoring a cut-off header', () => {
    const frame = (stream: number, text: string) => {
      const header = Buffer.alloc(8);
      header[0] = stream;
      header.writeUInt32BE(Buffer.byteLength(text), 4);
      return Buffer.concat([header, Buffer.from(text)]);
    };
    const log = Buffer.concat([frame(1, 'Done (1s)\n'), frame(2, 'warn: x\n'), Buffer.from([1, 0, 0])]);
    expect(payloadsOf(log).map(String)).toEqual(['Done (1s)\n', 'warn: x\n']);
  });
});
