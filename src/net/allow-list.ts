import { isIP } from 'node:net';
import { canonicalHost } from './host-name.ts';

/** Where a mapped name is served. */
export interface HostMapping {
  address: string;
  port: number;
}

/**
 * The exceptions to "connect only to public addresses", for operators and tests. Empty in
 * production, where it allows nothing. Two kinds of entry:
 *
 * - `host:port` (`localhost:8080`, `10.0.0.5:443`, `[::1]:8080`): a fetch to exactly that host and
 *   port may connect to whatever the host resolves to, public or not. Other ports of the same host,
 *   and other names for the same address, stay under the rule.
 * - `name=ip:port` (`pub.test=127.0.0.1:9000`): a hosts-file line that also names the port. A fetch
 *   to `name`, whatever port its URL gives or implies, connects to ip:port without asking the
 *   resolver and is allowed. The request keeps its own Host header and TLS server name, so
 *   `https://pub.test/` needs a TLS server at ip:port with a certificate for `pub.test`. Any port
 *   rather than only the scheme's default, so a server that writes its real port into a redirect
 *   still resolves to itself.
 */
export class AllowList {
  readonly #endpoints: Set<string>;
  readonly #names: Map<string, HostMapping>;

  constructor(endpoints: ReadonlyArray<{ host: string; port: number }>, names: ReadonlyMap<string, HostMapping>) {
    this.#endpoints = new Set(endpoints.map(({ host, port }) => endpointKey(host, port)));
    this.#names = new Map(names);
  }

  get empty(): boolean {
    return this.#endpoints.size === 0 && this.#names.size === 0;
  }

  /** Whether `host` (canonical, see host-name.ts) on `port` may be reached at a non-public address. */
  permits(host: string, port: number): boolean {
    return this.#endpoints.has(endpointKey(host, port)) || this.#names.has(host);
  }

  /** Where a mapped name is served, bypassing the resolver. */
  mapping(host: string): HostMapping | undefined {
    return this.#names.get(host);
  }
}

/** Parses `entry,entry,...` (see AllowList); blank or absent allows nothing. */
export function parseAllowList(value: string | undefined): AllowList {
  const endpoints: Array<{ host: string; port: number }> = [];
  const names = new Map<string, HostMapping>();
  for (const raw of (value ?? '').split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const equals = entry.indexOf('=');
    if (equals === -1) {
      endpoints.push(hostAndPort(entry, entry));
      continue;
    }
    const name = canonicalHost(entry.slice(0, equals).trim());
    if (name === undefined || isIP(name) !== 0) throw malformed(entry, 'the part before "=" must be a host name');
    const target = hostAndPort(entry, entry.slice(equals + 1).trim());
    if (isIP(target.host) === 0) throw malformed(entry, 'the part after "=" must be an IP address and port');
    const earlier = names.get(name);
    if (earlier && (earlier.address !== target.host || earlier.port !== target.port)) {
      throw malformed(entry, `${name} is already mapped to another address`);
    }
    names.set(name, { address: target.host, port: target.port });
  }
  return new AllowList(endpoints, names);
}

function hostAndPort(entry: string, text: string): { host: string; port: number } {
  const match = /^(.+):(\d{1,5})$/.exec(text);
  const port = match ? Number(match[2]) : 0;
  if (!match || port < 1 || port > 65535) throw malformed(entry, 'expected host:port with a port from 1 to 65535');
  const hostText = match[1] as string;
  // A bare IPv6 address would be ambiguous with its last group read as the port.
  if (hostText.includes(':') && !hostText.startsWith('[')) throw malformed(entry, 'write an IPv6 address in brackets');
  const host = canonicalHost(hostText);
  if (host === undefined) throw malformed(entry, `"${hostText}" is not a host`);
  return { host, port };
}

function malformed(entry: string, why: string): Error {
  return new Error(`fetch allow-list entry "${entry}" is malformed: ${why}`);
}

function endpointKey(host: string, port: number): string {
  return `${host} ${port}`;
}
