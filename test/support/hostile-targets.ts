/**
 * Where a fetch of a URL someone else supplied must never go, written in the forms an attacker
 * would try: loopback, private, link-local, unspecified and carrier-grade NAT addresses, as
 * literals (dotted, decimal, hex, octal, IPv4-mapped IPv6) and as names that resolve inside. One
 * list for the fetch client's own tests and for every feature that takes such a URL.
 */

/** What the test names in the list resolve to; give these to the resolver under test. */
export const hostileNames: Readonly<Record<string, string[]>> = {
  'internal.test': ['10.1.2.3'],
  'mixed.test': ['8.8.8.8', '10.1.2.3'],
  'loopback.test': ['127.0.0.1'],
};

/** Ports of local traps the loopback targets point at, so a test can see nothing reached them. */
export interface TrapPorts {
  v4: number;
  /** A trap on ::1, where the host has IPv6; otherwise any port. */
  v6?: number;
}

/**
 * `[url, range]`: each target with `scheme`, and the range the fetch policy must name when it
 * refuses it. `localhost` is resolved by the system (the hosts file); every other name by
 * `hostileNames`.
 */
export function hostileUrls(scheme: 'http' | 'https', trap: TrapPorts): Array<[string, string]> {
  const { v4, v6 = 80 } = trap;
  const targets: Array<[string, string]> = [
    [`127.0.0.1:${v4}/`, 'loopback'],
    [`localhost:${v4}/`, 'loopback'],
    [`0.0.0.0:${v4}/`, 'unspecified'],
    [`2130706433:${v4}/`, 'loopback'],
    [`0x7f000001:${v4}/`, 'loopback'],
    [`0x7f.1:${v4}/`, 'loopback'],
    [`0177.0.0.1:${v4}/`, 'loopback'],
    [`[::ffff:127.0.0.1]:${v4}/`, 'loopback'],
    [`[::1]:${v6}/`, 'loopback'],
    [`loopback.test:${v4}/`, 'loopback'],
    ['10.0.0.1/', 'private'],
    ['192.168.0.1:8080/', 'private'],
    ['169.254.169.254/latest/meta-data', 'linkLocal'],
    ['[::ffff:a9fe:a9fe]/latest/meta-data', 'linkLocal'],
    ['[fe80::1]/', 'linkLocal'],
    ['[fd00:ec2::254]/', 'uniqueLocal'],
    ['100.100.100.200/', 'carrierGradeNat'],
    ['internal.test/', 'private'],
    ['mixed.test/', 'private'],
  ];
  return targets.map(([target, range]) => [`${scheme}://${target}`, range]);
}
