import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * Why an address of a ipaddr.js range may not be fetched from. Only `unicast` (the public internet)
 * is missing on purpose: everything else is refused, including ranges not named here (benchmarking,
 * 6to4, NAT64, teredo…), which can hide or reach an internal IPv4 address.
 */
const REASONS: Record<string, string> = {
  loopback: 'is a loopback address',
  unspecified: 'is unspecified',
  private: 'is on a private network',
  uniqueLocal: 'is on a private network',
  linkLocal: 'is link-local (where cloud metadata services answer)',
  carrierGradeNat: 'is on a carrier-grade NAT network',
  multicast: 'is a multicast or broadcast address',
  broadcast: 'is a multicast or broadcast address',
};
const SPECIAL_USE = 'is reserved for special use';

/** Whether `s` is an IPv4 or IPv6 network in CIDR notation (`10.0.0.0/8`, `fd00::/8`). */
export function isCidr(s: string): boolean {
  try {
    ipaddr.parseCIDR(s);
    return true;
  } catch {
    return false;
  }
}

/**
 * Which addresses the daemon may download from for a user (remote pull, protocol §8.15 and the
 * SSRF advisories of §9): public unicast addresses, plus the networks the operator allows in
 * `api.remote_download.allowed_networks`. IPv4-mapped and IPv4-compatible IPv6 forms are judged as
 * the IPv4 address they carry, so `::ffff:127.0.0.1` is loopback.
 */
export class AddressPolicy {
  private readonly allowed: [Address, number][];

  constructor(allowedNetworks: readonly string[]) {
    this.allowed = allowedNetworks.map((n) => {
      const [addr, bits] = ipaddr.parseCIDR(n);
      return [normal(addr), addr.kind() === 'ipv6' && normal(addr).kind() === 'ipv4' ? bits - 96 : bits];
    });
  }

  /** null when `ip` may be connected to; else the sentence that tells the user why not. */
  refusal(ip: string): string | null {
    let addr: Address;
    try {
      addr = normal(ipaddr.parse(ip));
    } catch {
      return `The address ${ip} is not a valid IP address.`;
    }
    if (this.allowed.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits))) return null;
    const range = addr.range();
    if (range === 'unicast') return null;
    return `The address ${ip} ${REASONS[range] ?? SPECIAL_USE} and cannot be downloaded from.`;
  }
}

/** The IPv4 address an IPv4-mapped (`::ffff:a.b.c.d`) or -compatible (`::a.b.c.d`) IPv6 carries. */
function normal(addr: Address): Address {
  if (addr.kind() !== 'ipv6') return addr;
  const v6 = addr as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  // ::a.b.c.d (deprecated "compatible" form), but not :: and ::1 themselves.
  const p = v6.parts;
  if (p.slice(0, 6).every((x) => x === 0) && (p[6] ?? 0) !== 0) {
    return ipaddr.IPv4.parse(
      `${(p[6] ?? 0) >> 8}.${(p[6] ?? 0) & 0xff}.${(p[7] ?? 0) >> 8}.${(p[7] ?? 0) & 0xff}`,
    );
  }
  return addr;
}
