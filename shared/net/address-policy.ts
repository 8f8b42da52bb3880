/**
 * Which addresses a callback or webhook may never reach (docs/behaviour.md "Payment safety in deployed
 * stages"): anything inside a network rather than on the internet. Ranges are matched with
 * node:net BlockList. An IPv6 address that carries an IPv4 one (IPv4-mapped, -translated,
 * -compatible, NAT64, 6to4) is judged by the IPv4 address it carries, so `[::ffff:10.0.0.1]`
 * (which the URL parser spells `[::ffff:a00:1]`) is as private as 10.0.0.1. Teredo (2001::/32)
 * and local-use NAT64 (64:ff9b:1::/48) addresses are refused whole: where they carry an IPv4
 * address is not fixed (Teredo obfuscates it; a local-use prefix's length is the network's own).
 */
import { BlockList, isIP } from 'node:net';

export type AddressClass =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'benchmarking'
  | 'tunnel'
  | 'translation';

export interface Refusal {
  addressClass: AddressClass;
  /** How an IPv6 address carries the refused IPv4 one, e.g. `IPv4-mapped`. */
  embedding?: string;
}

/** The local stack's receivers run on the developer's machine: loopback is allowed there only. */
export interface AddressPolicy {
  allowLoopback: boolean;
}

type Range = readonly [AddressClass, network: string, prefix: number];

const IPV4_RANGES: readonly Range[] = [
  ['unspecified', '0.0.0.0', 8], // "this network": 0.0.0.0 reaches the host itself
  ['loopback', '127.0.0.0', 8],
  ['private', '10.0.0.0', 8],
  ['private', '172.16.0.0', 12],
  ['private', '192.168.0.0', 16],
  ['link-local', '169.254.0.0', 16], // includes the instance metadata service
  ['shared', '100.64.0.0', 10], // carrier-grade NAT
  ['reserved', '192.0.0.0', 24], // IETF protocol assignments (RFC 6890): DS-Lite, NAT64 discovery and the like
  ['benchmarking', '198.18.0.0', 15], // network benchmark tests (RFC 2544), often used inside networks
  ['multicast', '224.0.0.0', 4],
  ['broadcast', '255.255.255.255', 32],
  ['reserved', '240.0.0.0', 4],
];

const IPV6_RANGES: readonly Range[] = [
  ['unspecified', '::', 128],
  ['loopback', '::1', 128],
  ['private', 'fc00::', 7], // unique local, includes the IPv6 metadata service fd00:ec2::254
  ['private', 'fec0::', 10], // deprecated site-local
  ['link-local', 'fe80::', 10],
  ['multicast', 'ff00::', 8],
  ['tunnel', '2001::', 32], // Teredo (RFC 4380): an IPv4 address, obfuscated, behind any of it
  ['translation', '64:ff9b:1::', 48], // local-use IPv4/IPv6 translation (RFC 8215): a network's own NAT64
];

/** IPv6 forms that carry an IPv4 address: where the 32 bits sit, and the address with them. */
const EMBEDDINGS: readonly { form: string; offset: number; address: (hi: string, lo: string) => string }[] = [
  { form: 'IPv4-mapped', offset: 96, address: (hi, lo) => `::ffff:${hi}:${lo}` },
  { form: 'IPv4-translated', offset: 96, address: (hi, lo) => `::ffff:0:${hi}:${lo}` },
  { form: 'IPv4-compatible', offset: 96, address: (hi, lo) => `::${hi}:${lo}` },
  { form: 'NAT64', offset: 96, address: (hi, lo) => `64:ff9b::${hi}:${lo}` },
  { form: '6to4', offset: 16, address: (hi, lo) => `2002:${hi}:${lo}::` },
];

interface Matcher extends Refusal {
  family: 4 | 6;
  list: BlockList;
}

function matcher(family: 4 | 6, network: string, prefix: number, refusal: Refusal): Matcher {
  const list = new BlockList();
  list.addSubnet(network, prefix, family === 4 ? 'ipv4' : 'ipv6');
  return { ...refusal, family, list };
}

function embeddedNetwork(embedding: (typeof EMBEDDINGS)[number], network: string): string {
  const [a = 0, b = 0, c = 0, d = 0] = network.split('.').map(Number);
  return embedding.address(((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
}

// First match wins: the IPv6 ranges come before the embeddings, so ::1 is loopback rather than
// "IPv4-compatible 0.0.0.1". Built on the first address judged, not when the module loads (a cold
// start of every function that can send a delivery; BENCHMARKS.md "Cold start").
let matchers: readonly Matcher[] | undefined;
const allMatchers = (): readonly Matcher[] => (matchers ??= [
  ...IPV4_RANGES.map(([addressClass, network, prefix]) => matcher(4, network, prefix, { addressClass })),
  ...IPV6_RANGES.map(([addressClass, network, prefix]) => matcher(6, network, prefix, { addressClass })),
  ...EMBEDDINGS.flatMap((embedding) =>
    IPV4_RANGES.map(([addressClass, network, prefix]) =>
      matcher(6, embeddedNetwork(embedding, network), embedding.offset + prefix, { addressClass, embedding: embedding.form }),
    ),
  ),
]);

/** Why an IP address is refused, whatever the stage; undefined for an address on the internet. */
export function classifyAddress(address: string): Refusal | undefined {
  const family = isIP(address);
  if (family !== 4 && family !== 6) throw new TypeError(`Not an IP address: ${address}`);
  const found = allMatchers().find((m) => m.family === family && m.list.check(address, family === 4 ? 'ipv4' : 'ipv6'));
  return found && (found.embedding ? { addressClass: found.addressClass, embedding: found.embedding } : { addressClass: found.addressClass });
}

/** A URL hostname as a bare name or address: no IPv6 brackets, no root dot, lower case. */
export function bareHost(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();
}

/** `localhost` and `*.localhost` are loopback by definition (RFC 6761), whatever DNS says. */
export function isLoopbackName(hostname: string): boolean {
  const host = bareHost(hostname);
  return host === 'localhost' || host.endsWith('.localhost');
}

/**
 * Why a URL's host is refused under a policy, judged without DNS: an address literal by its
 * class, a `localhost` name as loopback. Any other name is judged by its DNS answer at send time.
 */
export function refusedHost(hostname: string, policy: AddressPolicy): Refusal | undefined {
  const host = bareHost(hostname);
  const refusal = isIP(host) ? classifyAddress(host) : isLoopbackName(host) ? { addressClass: 'loopback' as const } : undefined;
  return refusal && !(policy.allowLoopback && refusal.addressClass === 'loopback') ? refusal : undefined;
}

/** Why a resolved address is refused under a policy. */
export function refusedAddress(address: string, policy: AddressPolicy): Refusal | undefined {
  const refusal = classifyAddress(address);
  return refusal && !(policy.allowLoopback && refusal.addressClass === 'loopback') ? refusal : undefined;
}

/** "private address", "IPv4-mapped loopback address". */
export function describeRefusal(refusal: Refusal): string {
  return `${refusal.embedding ? `${refusal.embedding} ` : ''}${refusal.addressClass} address`;
}

/** "10.0.0.1 is a private address", "localhost is a loopback name". */
export function describeHostRefusal(hostname: string, refusal: Refusal): string {
  const host = bareHost(hostname);
  if (!isIP(host)) return `${host} is a ${refusal.addressClass} name`;
  const described = describeRefusal(refusal);
  return `${host} is ${/^[aeiouAEIOU]/.test(described) ? 'an' : 'a'} ${described}`;
}
