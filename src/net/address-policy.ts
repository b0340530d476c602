import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Whether an outbound fetch may connect to an address, and the range that decided it (an
 * ipaddr.js range name such as `loopback`, `private`, `linkLocal`, `carrierGradeNat`, `reserved`,
 * or `unicast` for an address that may be reached).
 */
export interface AddressClass {
  public: boolean;
  range: string;
}

// IANA has only ever allocated global unicast IPv6 from 2000::/3; anything outside it that
// ipaddr.js still calls `unicast` (for example 4000::1) is unassigned, so it is not reachable on
// purpose by anyone we crawl.
const globalUnicastV6 = ipaddr.parseCIDR('2000::/3');
// Well-known NAT64 prefix: the gateway connects to the IPv4 address in the low 32 bits.
const nat64 = ipaddr.parseCIDR('64:ff9b::/96');
// Deprecated IPv4-compatible addresses (::a.b.c.d); also holds :: and ::1, handled first.
const ipv4Compatible = ipaddr.parseCIDR('::/96');

export function classifyAddress(ip: string): AddressClass {
  // Judged only in the forms the socket layer takes as addresses: ipaddr.js would also read
  // `127.1` or `0x7f000001`, which a socket would hand to DNS instead.
  if (isIP(ip) === 0) return { public: false, range: 'invalid' };
  const address = ipaddr.parse(ip);
  return address.kind() === 'ipv4' ? classifyV4(address as ipaddr.IPv4) : classifyV6(address as ipaddr.IPv6);
}

export function isPublicAddress(ip: string): boolean {
  return classifyAddress(ip).public;
}

/** Whether a listening host (`HOST`) is reachable from this machine alone: `localhost` or a loopback address. */
export function isLoopbackHost(host: string): boolean {
  const ip = host.replace(/^\[(.*)\]$/, '$1');
  return ip === 'localhost' || (isIP(ip) !== 0 && ipaddr.process(ip).range() === 'loopback');
}

function classifyV4(address: ipaddr.IPv4): AddressClass {
  // Only plain unicast passes; as112 and amt are anycast service ranges nobody publishes from.
  const range = address.range();
  return { public: range === 'unicast', range };
}

function classifyV6(address: ipaddr.IPv6): AddressClass {
  const range = address.range();
  if (range === 'ipv4Mapped') return classifyV4(address.toIPv4Address());
  if (address.match(nat64)) return classifyV4(embeddedV4(address));
  if (range === 'unicast' && address.match(ipv4Compatible)) {
    // No network routes these any more, so even a public embedded address is refused; a private
    // one is named so the message says what was really targeted.
    const embedded = classifyV4(embeddedV4(address));
    return { public: false, range: embedded.public ? 'reserved' : embedded.range };
  }
  if (range !== 'unicast') return { public: false, range };
  if (!address.match(globalUnicastV6)) return { public: false, range: 'reserved' };
  return { public: true, range };
}

function embeddedV4(address: ipaddr.IPv6): ipaddr.IPv4 {
  const bytes = address.toByteArray().slice(12);
  return new ipaddr.IPv4(bytes);
}
