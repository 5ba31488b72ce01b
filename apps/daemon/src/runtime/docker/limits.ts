import type { ResourceLimits } from '../cgroups.ts';

const MIB = 1024 * 1024;

/**
 * Memory the container may really use for a build limit: a little more than the limit, because a
 * JVM or game engine needs room beyond the heap the player sized (Wings protocol §8.13: ×1.15 up to
 * 2 GiB, ×1.10 up to 4 GiB, ×1.05 above). The limit shown to players stays the build's.
 */
export function memoryWithOverhead(memoryBytes: number): number {
  if (memoryBytes <= 0) return 0;
  const mib = memoryBytes / MIB;
  const multiplier = mib <= 2048 ? 1.15 : mib <= 4096 ? 1.1 : 1.05;
  return Math.round(memoryBytes * multiplier);
}

/** Extra per-server settings of the build that only a container runtime applies. */
export interface ContainerBuild {
  /** Block-IO weight, 10–1000. */
  ioWeight?: number;
  /** The kernel's OOM killer leaves the container alone (it stalls at its limit instead). */
  oomDisabled?: boolean;
  /** CPUs the container may run on, like `0-1,3`. */
  cpuset?: string | null;
}

export interface ContainerResources {
  Memory: number;
  MemoryReservation: number;
  MemorySwap: number;
  CpuQuota: number;
  CpuPeriod: number;
  PidsLimit: number;
}

/** The resource part of a container's HostConfig (create and live update share it). */
export function resourceConfig(limits: ResourceLimits): ContainerResources {
  const hard = memoryWithOverhead(limits.memoryBytes);
  // No limit → 0 everywhere. Swap: -1 unlimited, else the extra swap on top of the hard limit.
  const swap = hard === 0 || limits.swapBytes < 0 ? -1 : hard + limits.swapBytes;
  return {
    Memory: hard,
    MemoryReservation: limits.memoryBytes > 0 ? limits.memoryBytes : 0,
    MemorySwap: swap,
    // cpu_limit is a percentage of one core: a 100 ms period with quota percent × 1 ms.
    CpuQuota: limits.cpuPercent > 0 ? limits.cpuPercent * 1000 : 0,
    CpuPeriod: limits.cpuPercent > 0 ? 100_000 : 0,
    // 0 = unlimited for Docker; our limits use 0 the same way (the installer has none).
    PidsLimit: limits.pids > 0 ? limits.pids : 0,
  };
}
