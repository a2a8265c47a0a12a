import { describe, expect, it } from 'vitest';
import { networksSchema } from '../config-fields.ts';
import { mayReach, reachableLookup, UnreachableAddress } from './reachable-networks.ts';

const none = networksSchema.parse('none');
const internal = networksSchema.parse('10.0.0.0/8,fd00::/8');

describe('mayReach', () => {
  it.each([
    ['93.184.216.34', 'public IPv4'],
    ['2606:4700:4700::1111', 'public IPv6'],
    ['::ffff:93.184.216.34', 'public IPv4 written as IPv6'],
    ['64:ff9b::5db8:d822', '93.184.216.34 through NAT64'],
    ['2002:5db8:d822::1', '93.184.216.34 through 6to4'],
  ])('reaches %s (%s) with no network configured', (address) => {
    expect(mayReach(address, none)).toBe(true);
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', "a cloud's metadata service (link-local)"],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified, which connects to this machine'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fd12:3456::1', 'IPv6 unique-local'],
    ['::ffff:10.0.0.5', 'private IPv4 written as IPv6'],
    ['::ffff:127.0.0.1', 'loopback written as IPv6'],
    ['64:ff9b::a00:5', '10.0.0.5 through NAT64'],
    ['2002:a00:5::1', '10.0.0.5 through 6to4'],
    ['not an address', 'no address at all'],
  ])('does not reach %s (%s) with no network configured', (address) => {
    expect(mayReach(address, none)).toBe(false);
  });

  it('reaches the networks configured, in either notation, and no other special-use address', () => {
    expect(mayReach('10.1.2.3', internal)).toBe(true);
    expect(mayReach('::ffff:10.1.2.3', internal)).toBe(true);
    expect(mayReach('fd00:1::7', internal)).toBe(true);
    expect(mayReach('192.168.1.1', internal)).toBe(false);
    expect(mayReach('127.0.0.1', internal)).toBe(false);
    expect(mayReach('fe80::1', internal)).toBe(false);
    // The IPv4 address NAT64 and 6to4 lead to is what counts.
    expect(mayReach('64:ff9b::a01:203', internal)).toBe(true);
    expect(mayReach('2002:a01:203::1', internal)).toBe(true);
    expect(mayReach('64:ff9b::c0a8:101', internal)).toBe(false);
    // A network is a boundary: the first address past 10.255.255.255 is public anyway, the last
    // private one before 10.0.0.0 is not in it.
    expect(mayReach('9.255.255.255', internal)).toBe(true);
    expect(mayReach('10.255.255.255', internal)).toBe(true);
    expect(mayReach('192.168.0.255', networksSchema.parse('192.168.1.0/24'))).toBe(false);
    expect(mayReach('192.168.1.0', networksSchema.parse('192.168.1.0/24'))).toBe(true);
    expect(mayReach('192.168.2.0', networksSchema.parse('192.168.1.0/24'))).toBe(false);
  });
});

describe('reachableLookup', () => {
  function lookUp(hostname: string, all: boolean) {
    return new Promise<{ error: Error | null; address: unknown; family?: number }>((resolve) => {
      reachableLookup(networksSchema.parse('127.0.0.1'))(hostname, { all }, (error, address, family) =>
        resolve({ error, address, family }),
      );
    });
  }

  it('answers only the addresses the networks allow, in the form asked for', async () => {
    expect(await lookUp('localhost', false)).toEqual({ error: null, address: '127.0.0.1', family: 4 });
    expect(await lookUp('localhost', true)).toEqual({
      error: null,
      address: [{ address: '127.0.0.1', family: 4 }],
      family: undefined,
    });
  });

  it('fails with UnreachableAddress for a name with no allowed address', async () => {
    const { error } = await lookUp('127.0.0.2', false);
    expect(error).toBeInstanceOf(UnreachableAddress);
    expect(error?.message).toBe(
      '127.0.0.2 is not a public address and no network of BACKCHANNEL_PRIVATE_NETWORKS names it',
    );
  });

  it('passes on a failed lookup as it is', async () => {
    const { error } = await lookUp('no-such-host.invalid', false);
    expect(error).not.toBeInstanceOf(UnreachableAddress);
    expect((error as NodeJS.ErrnoException | null)?.code).toMatch(/ENOTFOUND|EAI_AGAIN/);
  });
});
