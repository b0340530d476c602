import { isIP } from 'node:net';
import { classifyAddress } from './address-policy.ts';
import { parseAllowList, type AllowList } from './allow-list.ts';
import { FetchError } from './fetch-error.ts';
import { canonicalHost } from './host-name.ts';
import { systemResolver, type Resolver } from './resolver.ts';

/** What decides where an outbound fetch may connect. */
export interface FetchPolicy {
  resolver: Resolver;
  allow: AllowList;
}

/** The production policy: the system resolver, no exceptions. */
export const publicOnlyPolicy: FetchPolicy = { resolver: systemResolver, allow: parseAllowList('') };

/** The addresses a connection may use, already checked, and the port to use with them. */
export interface Destination {
  addresses: string[];
  port: number;
}

/**
 * Resolves a host (canonical, see host-name.ts) and applies the policy. Refuses when ANY answer is
 * not public rather than connecting only to the public ones: a name that also points inside is
 * either misconfigured or probing, and skipping the bad answers would leave the fetch's outcome
 * to the resolver's ordering.
 */
export async function resolveDestination(host: string, port: number, policy: FetchPolicy): Promise<Destination> {
  const mapped = policy.allow.mapping(host);
  if (mapped) return { addresses: [mapped.address], port: mapped.port };

  const addresses = isIP(host) !== 0 ? [host] : await resolve(host, policy.resolver);
  checkAddresses(host, port, addresses, policy);
  return { addresses, port };
}

/**
 * The policy for a host that is an address literal (canonical, see host-name.ts), decided without
 * any lookup, for checks that cannot wait for DNS; a name passes, since only resolving it can tell.
 */
export function checkAddressLiteral(host: string, port: number, policy: FetchPolicy): void {
  if (isIP(host) !== 0) checkAddresses(host, port, [host], policy);
}

function checkAddresses(host: string, port: number, addresses: string[], policy: FetchPolicy): void {
  if (policy.allow.permits(host, port)) return;
  for (const address of addresses) {
    const { public: isPublic, range } = classifyAddress(address);
    if (!isPublic) {
      const target = address === host ? host : `${host} resolves to ${address}, which`;
      throw new FetchError('forbidden_address', `${target} is ${range}; fetches may only reach public addresses`, {
        host,
        range,
      });
    }
  }
}

/**
 * Resolves a host and applies the policy without fetching, so a request naming a private or
 * reserved host can be rejected before it is queued. Returns the checked addresses.
 */
export async function checkHost(hostname: string, policy: FetchPolicy, port = 443): Promise<string[]> {
  const host = canonicalHost(hostname);
  if (host === undefined) throw new FetchError('invalid_url', `"${hostname}" is not a host name`, { host: hostname });
  return (await resolveDestination(host, port, policy)).addresses;
}

async function resolve(host: string, resolver: Resolver): Promise<string[]> {
  let addresses: string[];
  try {
    addresses = await resolver(host);
  } catch (error) {
    throw new FetchError('dns_failure', `${host} could not be resolved: ${(error as Error).message}`, {
      host,
      cause: error,
    });
  }
  if (addresses.length === 0) throw new FetchError('dns_failure', `${host} resolved to no address`, { host });
  // The socket would hand anything but an address literal back to DNS, skipping this check.
  const odd = addresses.find((address) => isIP(address) === 0);
  if (odd !== undefined)
    throw new FetchError('dns_failure', `${host} resolved to "${odd}", which is not an address`, { host });
  return addresses;
}
