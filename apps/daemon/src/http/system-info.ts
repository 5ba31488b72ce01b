import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { SystemInfo } from '@talon/shared';
import type { NodeRuntime, SystemInfoV2 } from '@talon/shared/wings/system-v2';
import type { DaemonConfig } from '../config/config.ts';
import type { RuntimeInfo } from '../runtime/driver.ts';

/** Go's name for the CPU architecture, as Wings reports it (`amd64`, `arm64`). */
function architecture(): string {
  return os.arch() === 'x64' ? 'amd64' : os.arch();
}

/** The distribution's name from os-release (PRETTY_NAME, else NAME), as Wings' v2 answer gives it. */
export function distributionName(text: string): string | null {
  const fields = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([A-Z_]+)=(.*)$/u.exec(line.trim());
    if (m) fields.set(m[1]!, m[2]!.replace(/^(["'])(.*)\1$/u, '$2'));
  }
  return fields.get('PRETTY_NAME') || fields.get('NAME') || null;
}

function osName(): string {
  for (const file of ['/etc/os-release', '/usr/lib/os-release']) {
    try {
      const name = distributionName(readFileSync(file, 'utf8'));
      if (name) return name;
    } catch {
      // try the next location
    }
  }
  return `${os.type()} ${os.release()}`;
}

/**
 * The `runtime` extension of both answers: how this node runs servers, and for containers the
 * Docker network mode they join (the admin node page shows "Docker (host network)").
 */
export function runtimeExtension(runtime: RuntimeInfo, config: DaemonConfig): NodeRuntime {
  return {
    ...runtime,
    network: runtime.driver === 'docker' ? config.docker.network.network_mode : null,
  };
}

/** `GET /api/system` without `v=2` (Wings' plain answer; `runtime` is our extension). */
export function systemInfo(version: string, runtime: NodeRuntime): SystemInfo {
  return {
    architecture: architecture(),
    cpu_count: os.cpus().length,
    kernel_version: os.release(),
    os: 'linux',
    version,
    runtime,
  };
}

/**
 * `GET /api/system?v=2`: Wings' host block with the total memory, and our `runtime` extension (the
 * panel's node health reads this answer); no Wings `docker` block.
 */
export function systemInfoV2(version: string, runtime: NodeRuntime): SystemInfoV2 {
  return {
    version,
    runtime,
    system: {
      architecture: architecture(),
      cpu_threads: os.cpus().length,
      memory_bytes: os.totalmem(),
      kernel_version: os.release(),
      os: osName(),
      os_type: 'linux',
    },
  };
}
