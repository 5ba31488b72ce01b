import { describe, expect, it } from 'vitest';
import { AddressPolicy, isCidr } from './address-policy.ts';

describe('AddressPolicy', () => {
  const closed = new AddressPolicy([]);

  it('refuses loopback, unspecified, private, link-local, CGNAT, multicast and reserved addresses, saying why', () => {
    const cases: [string, string][] = [
      ['127.0.0.1', 'The address 127.0.0.1 is a loopback address and cannot be downloaded from.'],
      ['127.8.9.10', 'The address 127.8.9.10 is a loopback address and cannot be downloaded from.'],
      ['::1', 'The address ::1 is a loopback address and cannot be downloaded from.'],
      ['0.0.0.0', 'The address 0.0.0.0 is unspecified and cannot be downloaded from.'],
      ['::', 'The address :: is unspecified and cannot be downloaded from.'],
      ['10.0.0.5', 'The address 10.0.0.5 is on a private network and cannot be downloaded from.'],
      ['172.16.4.1', 'The address 172.16.4.1 is on a private network and cannot be downloaded from.'],
      ['172.31.255.255', 'The address 172.31.255.255 is on a private network and cannot be downloaded from.'],
      ['192.168.1.1', 'The address 192.168.1.1 is on a private network and cannot be downloaded from.'],
      ['fc00::1', 'The address fc00::1 is on a private network and cannot be downloaded from.'],
      ['fd12:3456::1', 'The address fd12:3456::1 is on a private network and cannot be downloaded from.'],
      [
        '169.254.169.254',
        'The address 169.254.169.254 is link-local (where cloud metadata services answer) and cannot be downloaded from.',
      ],
      [
        'fe80::1',
        'The address fe80::1 is link-local (where cloud metadata services answer) and cannot be downloaded from.',
      ],
      [
        '100.64.0.1',
        'The address 100.64.0.1 is on a carrier-grade NAT network and cannot be downloaded from.',
      ],
      [
        '224.0.0.1',
        'The address 224.0.0.1 is a multicast or broadcast address and cannot be downloaded from.',
      ],
      ['ff02::1', 'The address ff02::1 is a multicast or broadcast address and cannot be downloaded from.'],
      [
        '255.255.255.255',
        'The address 255.255.255.255 is a multicast or broadcast address and cannot be downloaded from.',
      ],
      ['192.0.2.1', 'The address 192.0.2.1 is reserved for special use and cannot be downloaded from.'],
    ];
    for (const [ip, message] of cases) expect(closed.refusal(ip), ip).toBe(message);
  });

  it('sees through IPv4 inside IPv6 (mapped, compatible, NAT64, 6to4)', () => {
    expect(closed.refusal('::ffff:127.0.0.1')).toBe(
      'The address ::ffff:127.0.0.1 is a loopback address and cannot be downloaded from.',
    );
    expect(closed.refusal('::ffff:a00:5')).toBe(
      'The address ::ffff:a00:5 is on a private network and cannot be downloaded from.',
    );
    expect(closed.refusal('::ffff:169.254.169.254')).toMatch(/is link-local/);
    // NAT64 and 6to4 prefixes carry an IPv4 address inside: refused as special-use.
    expect(closed.refusal('64:ff9b::a00:1')).toMatch(/reserved for special use/);
    expect(closed.refusal('2002:a00:1::')).toMatch(/reserved for special use/);
  });

  it('lets public addresses through', () => {
    for (const ip of [
      '8.8.8.8',
      '1.1.1.1',
      '93.184.216.34',
      '2606:4700:4700::1111',
      '172.32.0.1',
      '100.128.0.1',
    ])
      expect(closed.refusal(ip), ip).toBeNull();
  });

  it('lets the operator allow networks (IPv4 CIDRs also match their mapped IPv6 form)', () => {
    const open = new AddressPolicy(['127.0.0.2/32', '10.20.0.0/16', 'fd00:1::/64']);
    expect(open.refusal('127.0.0.2')).toBeNull();
    expect(open.refusal('::ffff:127.0.0.2')).toBeNull();
    expect(open.refusal('10.20.3.4')).toBeNull();
    expect(open.refusal('fd00:1::5')).toBeNull();
    expect(open.refusal('127.0.0.1')).toMatch(/loopback/);
    expect(open.refusal('10.21.0.1')).toMatch(/private network/);
    expect(open.refusal('fd00:2::5')).toMatch(/private network/);
  });

  it('refuses what is not an address at all', () => {
    expect(closed.refusal('not-an-ip')).toBe('The address not-an-ip is not a valid IP address.');
  });

  it('checks CIDR notation for the configuration', () => {
    expect(isCidr('127.0.0.2/32')).toBe(true);
    expect(isCidr('fd00::/8')).toBe(true);
    expect(isCidr('127.0.0.2')).toBe(false);
    expect(isCidr('10.0.0.0/33')).toBe(false);
    expect(isCidr('example.com/8')).toBe(false);
  });
});
