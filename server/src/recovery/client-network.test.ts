import { describe, expect, it } from 'vitest';
import { clientNetwork } from './client-network.ts';

describe('clientNetwork: what the per-IP limits count a client by', () => {
  it('counts an IPv4 address as it is, also when it comes mapped into IPv6', () => {
    expect(clientNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetwork('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    const network = '2001:db8:85a3:42::/64';
    for (const address of [
      '2001:db8:85a3:42::1',
      '2001:0db8:85a3:0042:ffff:ffff:ffff:ffff',
      '2001:DB8:85A3:42:1:2:3:4',
      '2001:db8:85a3:42:0:0:0:0',
      '2001:db8:85a3:42::9%eth0',
    ]) {
      expect(clientNetwork(address), address).toBe(network);
    }
    expect(clientNetwork('2001:db8:85a3:43::1')).toBe('2001:db8:85a3:43::/64');
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
    expect(clientNetwork('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });

  it('counts what is no IP address as it comes, and no address at all as unknown', () => {
    expect(clientNetwork('unix:/run/keycard.sock')).toBe('unix:/run/keycard.sock');
    expect(clientNetwork(null)).toBe('unknown');
    expect(clientNetwork(undefined)).toBe('unknown');
  });
});
