import { lookup } from 'node:dns/promises';
import { isIP, isIPv4 } from 'node:net';
import { errors } from '../../http/errors.ts';

/** One request may not add more than this many ports per range. */
const MAX_PORTS_PER_RANGE = 1000;

/**
 * The addresses an allocation request names: one IP, every address of an IPv4 block from /25 to
 * /32, or the IPv4 address a hostname resolves to.
 */
export async function allocationAddresses(value: string): Promise<string[]> {
  const slash = value.indexOf('/');
  if (slash !== -1) {
    const base = value.slice(0, slash);
    const maskText = value.slice(slash + 1);
    if (!isIPv4(base) || !/^\d{1,3}$/u.test(maskText)) throw unparsable(value, 'not an IPv4 CIDR block');
    const mask = Number(maskText);
    if (mask < 25 || mask > 32) {
      throw errors.display('CIDR notation only allows masks between /25 and /32.', 'CidrOutOfRangeException');
    }
    const size = 2 ** (32 - mask);
    const first = Math.floor(ipv4ToInt(base) / size) * size;
    return Array.from({ length: size }, (_, i) => intToIpv4(first + i));
  }
  if (isIP(value) !== 0) return [value];
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/iu.test(value)) {
    throw unparsable(value, 'not an IP address, CIDR block or hostname');
  }
  try {
    const { address } = await lookup(value, { family: 4 });
    return [address];
  } catch (e) {
    throw unparsable(
      value,
      `the hostname does not resolve (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}

function unparsable(value: string, reason: string) {
  return errors.display(`Could not parse provided allocation IP address (${value}): ${reason}`);
}

function ipv4ToInt(ip: string): number {
  return ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

function intToIpv4(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

/**
 * The ports of a request's `ports` entries: `"25565"` or `"25565-25570"` (4–5 digits each end).
 * Only ports above 1024 can be allocated: lower ones need privileges on the node.
 */
export function allocationPorts(entries: string[]): number[] {
  const ports = new Set<number>();
  for (const entry of entries) {
    const single = /^\d+$/u.test(entry) ? Number(entry) : null;
    const range = /^(\d{4,5})-(\d{4,5})$/u.exec(entry);
    const start = single ?? (range ? Number(range[1]) : Number.NaN);
    const end = single ?? (range ? Number(range[2]) : Number.NaN);
    if (Number.isNaN(start) || end < start) {
      throw errors.display(
        `The mapping provided for ${entry} was invalid and could not be processed.`,
        'InvalidPortMappingException',
      );
    }
    if (end - start + 1 > MAX_PORTS_PER_RANGE) {
      throw errors.display(
        'Adding more than 1000 ports in a single range at once is not supported.',
        'TooManyPortsInRangeException',
      );
    }
    if (start <= 1024 || end > 65535) {
      throw errors.display(
        'Ports in an allocation must be greater than 1024 and less than or equal to 65535.',
        'PortOutOfRangeException',
      );
    }
    for (let p = start; p <= end; p++) ports.add(p);
  }
  return [...ports];
}
