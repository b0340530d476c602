import { lookup } from 'node:dns/promises';

/** Every address a host name resolves to. Injected so tests can name local servers. */
export type Resolver = (hostname: string) => Promise<string[]>;

/** The operating system's resolver (hosts file, then DNS), in the order it answers. */
export const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, order: 'verbatim' });
  return answers.map((answer) => answer.address);
};

/** A fixed table of names, for tests; unknown names fail as DNS would. */
export function staticResolver(table: Record<string, string[]>): Resolver {
  const names = new Map(Object.entries(table).map(([name, addresses]) => [name.toLowerCase(), addresses]));
  return async (hostname) => {
    const addresses = names.get(hostname.toLowerCase());
    if (addresses === undefined)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses;
  };
}
