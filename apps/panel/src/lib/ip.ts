import { BlockList, isIP } from 'node:net';

/** `::ffff:1.2.3.4` is the IPv4 client 1.2.3.4 arriving on a dual-stack socket. */
export function normalizeIp(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/iu.exec(ip);
  return mapped?.[1] ?? ip;
}

/**
 * Parses one allow-list entry: an address (v4/v6), CIDR (`10.0.0.0/8`, `2001:db8::/32`), a v4 mask
 * (`10.0.0.0/255.0.0.0`), a v4 wildcard (`192.168.1.*`) or a range (`10.0.0.1-10.0.0.9`).
 * Returns null when the entry is none of these.
 */
export function addAllowEntry(list: BlockList, entry: string): boolean {
  const value = entry.trim();
  if (value.includes('*')) {
    const parts = value.split('.');
    if (parts.length !== 4) return false;
    const lo = parts.map((p) => (p === '*' ? '0' : p)).join('.');
    const hi = parts.map((p) => (p === '*' ? '255' : p)).join('.');
    if (isIP(lo) !== 4 || isIP(hi) !== 4) return false;
    list.addRange(lo, hi, 'ipv4');
    return true;
  }
  if (value.includes('-')) {
    const [lo = '', hi = ''] = value.split('-').map((s) => s.trim());
    const family = isIP(lo);
    if (family === 0 || family !== isIP(hi)) return false;
    try {
      list.addRange(lo, hi, family === 4 ? 'ipv4' : 'ipv6');
      return true;
    } catch {
      return false;
    }
  }
  if (value.includes('/')) {
    const [net = '', bits = ''] = value.split('/');
    const family = isIP(net);
    if (family === 0) return false;
    let prefix: number;
    if (family === 4 && isIP(bits) === 4) {
      const n = bits.split('.').reduce((acc, o) => (acc << 8) + Number(o), 0) >>> 0;
      prefix = n.toString(2).replace(/0+$/u, '').length;
      if (n !== 0 && !/^1+0*$/u.test(n.toString(2).padStart(32, '0'))) return false;
    } else {
      if (!/^\d{1,3}$/u.test(bits)) return false;
      prefix = Number(bits);
    }
    if (prefix > (family === 4 ? 32 : 128)) return false;
    list.addSubnet(net, prefix, family === 4 ? 'ipv4' : 'ipv6');
    return true;
  }
  const family = isIP(value);
  if (family === 0) return false;
  list.addAddress(value, family === 4 ? 'ipv4' : 'ipv6');
  return true;
}

export function isValidAllowEntry(entry: string): boolean {
  return addAllowEntry(new BlockList(), entry);
}

/** True when no list is set or the address falls in one of its entries. */
export function ipAllowed(allowed: readonly string[], ip: string): boolean {
  if (allowed.length === 0) return true;
  const list = new BlockList();
  for (const entry of allowed) addAllowEntry(list, entry);
  const addr = normalizeIp(ip);
  const family = isIP(addr);
  if (family === 0) return false;
  return list.check(addr, family === 4 ? 'ipv4' : 'ipv6');
}
