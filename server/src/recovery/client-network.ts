import { isIPv4, isIPv6 } from 'node:net';

/** IPv6 groups (16 bits each) that name one customer's network: the /64 a provider hands out. */
const NETWORK_GROUPS = 4;

/** The eight 16-bit groups of a valid IPv6 address (isIPv6), a dotted IPv4 tail as the last two. */
function groupsOf(address: string): number[] {
  const parse = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!isIPv4(group)) return [Number.parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head = '', tail] = address.split('::');
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/**
 * What the per-IP limits count a client by: an IPv4 address as it is (an IPv4-mapped IPv6 address as
 * its IPv4 one), and an IPv6 address by its /64. A single IPv6 customer holds a whole /64 and may
 * send from any of its 2^64 addresses, so counting each address would give every request a limit of
 * its own. Anything else (a unix socket, none at all) is counted as it comes.
 */
export function clientNetwork(ip: string | null | undefined): string {
  // A zone (fe80::1%eth0) names the interface, not the address.
  const [address = ''] = (ip ?? '').split('%');
  if (!isIPv6(address)) return ip ?? 'unknown';
  const groups = groupsOf(address);
  const mapped = groups.slice(0, 6).join(':') === '0:0:0:0:0:65535';
  if (mapped) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, NETWORK_GROUPS)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
