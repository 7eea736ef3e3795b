import { BlockList, isIP } from 'node:net';

/**
 * The address blocks that are not the public internet (IANA's special-purpose registries): this
 * host, private networks, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT,
 * documentation, benchmarking, multicast and reserved ranges. IPv4 inside IPv6 (mapped, NAT64) is
 * judged by its IPv4 address.
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0:0', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address (v4 or v6, as DNS or a URL gives it) is on the public internet. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return !NOT_PUBLIC.check(bare, 'ipv4');
  if (family !== 6) return false;
  const embedded = embeddedIpv4(bare);
  if (embedded !== undefined) return isPublicAddress(embedded);
  return !NOT_PUBLIC.check(bare, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`), IPv4-compatible or NAT64 (`64:ff9b::/96`) one. */
function embeddedIpv4(address: string): string | undefined {
  const groups = expandedIpv6(address);
  if (!groups) return undefined;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  const mapped = zeros(0, 5) && (groups[5] === 0xffff || groups[5] === 0);
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6);
  if (!mapped && !nat64) return undefined;
  const [high, low] = [groups[6] as number, groups[7] as number];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail included). */
function expandedIpv6(address: string): number[] | undefined {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const bytes = (dotted[1] as string).split('.').map(Number);
    const tail = `${((bytes[0]! << 8) | bytes[1]!).toString(16)}:${((bytes[2]! << 8) | bytes[3]!).toString(16)}`;
    text = text.slice(0, -(dotted[1] as string).length) + tail;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(rest);
  const groups = rest === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}
