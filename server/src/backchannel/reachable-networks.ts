import { lookup as lookupAddresses } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { ReachableNetworks } from '../config-fields.ts';

/**
 * Whether a logout token may be posted to `address`: any public unicast address, and an address in a
 * special-use range (loopback, private, link-local such as a cloud's metadata service at
 * 169.254.169.254, unique-local, carrier-grade NAT, the unspecified address …) only when one of
 * `networks` names it. An IPv4 address written as IPv6 (`::ffff:10.0.0.1`) counts as the IPv4
 * address it is, and one carried inside an IPv6 address by NAT64 (`64:ff9b::/96`) or 6to4
 * (`2002::/16`) counts as the IPv4 address it leads to, so a host that reaches IPv4 only through
 * them reaches public relying parties and still no private one.
 */
export function mayReach(address: string, networks: ReachableNetworks): boolean {
  if (isIP(address) === 0) return false;
  const parsed = ipaddr.process(address);
  if (
    networks.some((network) => network[0].kind() === parsed.kind() && parsed.match(network[0], network[1]))
  ) {
    return true;
  }
  if (parsed.range() === 'unicast') return true;
  const carried = parsed.kind() === 'ipv6' ? carriedIPv4(parsed as ipaddr.IPv6) : undefined;
  return carried !== undefined && mayReach(carried, networks);
}

/** The IPv4 address a NAT64 (RFC 6052 well-known prefix) or 6to4 (RFC 3056) address carries. */
function carriedIPv4(address: ipaddr.IPv6): string | undefined {
  const { parts } = address;
  const ipv4 = (high: number | undefined, low: number | undefined) =>
    [(high ?? 0) >> 8, (high ?? 0) & 0xff, (low ?? 0) >> 8, (low ?? 0) & 0xff].join('.');
  const range = address.range();
  if (range === 'rfc6052') return ipv4(parts[6], parts[7]);
  if (range === '6to4') return ipv4(parts[1], parts[2]);
  return undefined;
}

/** The address a logout token was not posted to, and why (a configuration matter, not worth retrying). */
export class UnreachableAddress extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(
      `${host} ${host === address ? 'is' : `resolves to ${address}, which is`} not a public address and no network of BACKCHANNEL_PRIVATE_NETWORKS names it`,
    );
    this.name = 'UnreachableAddress';
  }
}

/**
 * A `lookup` for `net.connect` that answers only the addresses `mayReach` allows, so a name cannot
 * lead a post inside the service's network, however its DNS answers change between two posts. A name
 * whose addresses are all refused fails with UnreachableAddress. (An address written in the URL is
 * not looked up at all: check it with `mayReach` before connecting.)
 */
export function reachableLookup(networks: ReachableNetworks): LookupFunction {
  return (hostname, options, callback) => {
    lookupAddresses(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '');
        return;
      }
      const allowed = addresses.filter(({ address }) => mayReach(address, networks));
      const first = allowed[0];
      if (first === undefined) {
        callback(new UnreachableAddress(hostname, addresses[0]?.address ?? hostname), '');
        return;
      }
      // net.connect asks for every address when it tries IPv6 and IPv4 alike (autoSelectFamily).
      if (options.all) callback(null, allowed);
      else callback(null, first.address, first.family);
    });
  };
}
