import { lookup as lookupAddresses } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { ReachableNetworks } from '../config-fields.ts';

/**
 * Whether a logout token may be posted to `address`: any public unicast address, and an address in a
 * special-use range (loopback, private, link-local such as a cloud's metadata service at
 * 169.254.169.254, unique-local, carrier-grade NAT, the unspecified address, an IPv6 form embedding
 * an IPv4 address …) only when one of `networks` names it. An IPv4 address written as IPv6
 * (`::ffff:10.0.0.1`) counts as the IPv4 address it is.
 */
export function mayReach(address: string, networks: ReachableNetworks): boolean {
  if (isIP(address) === 0) return false;
  const parsed = ipaddr.process(address);
  if (parsed.range() === 'unicast') return true;
  return networks.some(
    (network) => network[0].kind() === parsed.kind() && parsed.match(network[0], network[1]),
  );
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
