import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { AllowList } from '../../src/net/allow-list.ts';
import { staticResolver } from '../../src/net/resolver.ts';
import { SafeFetch } from '../../src/net/safe-fetch.ts';
import { Conditions } from './events.ts';
import { sendPage, type Page } from './publishers.ts';

const fixtures = new URL('./fixtures/', import.meta.url);
const key = readFileSync(new URL('publishers.key', fixtures));
const cert = readFileSync(new URL('publishers.crt', fixtures));

/**
 * A fleet of publishers on the web, simulated: each `<name>.ap.test` is its own HTTPS server on
 * port 443 of its own loopback address (127.a.b.c), and the injected resolver maps the name to
 * it, exactly as DNS would map a real publisher. The fetch client is the real SSRF-safe one; only
 * the resolver, the trusted CA and an allow list naming the fleet's hosts are set for the test.
 */
export interface Fleet {
  domains: string[];
  serve(domain: string, path: string, page: Page | undefined): void;
  /** Requests each host saw, as paths, in order. */
  requests(domain: string): string[];
  /** Resolves once `check` holds, checked at each request any host sees. */
  until(check: () => boolean): Promise<void>;
  /** A crawl's fetch client, trusting the fleet; `names` adds DNS answers for hosts outside it (which stay under the public-only rule). */
  fetcher(options?: { timeoutMs?: number; maxBytes?: number; names?: Record<string, string[]> }): SafeFetch;
  /** `AP_FETCH_ALLOW`-free environment for an `ap` process: the resolver's table as allow-list mappings and the CA. */
  processEnv(): Record<string, string>;
  close(): Promise<void>;
}

interface Host {
  address: string;
  server: Server;
  pages: Map<string, Page>;
  seen: string[];
}

export async function startFleet(names: string[]): Promise<Fleet> {
  const hosts = new Map<string, Host>();
  const arrivals = new Conditions();
  // A random /16 of 127/8 per fleet, so fleets in parallel test files never share an address.
  const [a, b] = [2 + Math.floor(Math.random() * 250), Math.floor(Math.random() * 250)];
  let n = 0;
  for (const name of names) {
    const domain = `${name}.ap.test`;
    const pages = new Map<string, Page>();
    const seen: string[] = [];
    const server = createServer({ key, cert }, (req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      seen.push(path);
      arrivals.changed();
      sendPage(req, res, pages.get(path));
    });
    const address = await listen(server, () => `127.${a}.${b + Math.floor(n / 250)}.${1 + (n++ % 250)}`);
    hosts.set(domain, { address, server, pages, seen });
  }
  const domains = [...hosts.keys()];
  const table = Object.fromEntries(domains.map((d) => [d, [hosts.get(d)!.address]]));
  const host = (domain: string) => {
    const h = hosts.get(domain);
    if (!h) throw new Error(`${domain} is not in the fleet`);
    return h;
  };
  return {
    domains,
    serve(domain, path, page) {
      if (page) host(domain).pages.set(path, page);
      else host(domain).pages.delete(path);
    },
    requests: (domain) => host(domain).seen,
    until: (check) => arrivals.until(check),
    fetcher: (options = {}) =>
      new SafeFetch({
        resolver: staticResolver({ ...options.names, ...table }),
        // The fleet's names may reach loopback on 443; everything else stays under the public-only rule.
        allow: new AllowList(
          domains.map((d) => ({ host: d, port: 443 })),
          new Map(),
        ),
        ca: cert,
        timeoutMs: options.timeoutMs ?? 5000,
        ...(options.maxBytes ? { maxBytes: options.maxBytes } : {}),
      }),
    processEnv: () => ({
      AP_FETCH_ALLOW: domains.map((d) => `${d}=${hosts.get(d)!.address}:443`).join(','),
      NODE_EXTRA_CA_CERTS: new URL('publishers.crt', fixtures).pathname,
    }),
    async close() {
      await Promise.all(
        [...hosts.values()].map(
          ({ server }) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      );
    },
  };
}

async function listen(server: Server, nextAddress: () => string): Promise<string> {
  for (;;) {
    const address = nextAddress();
    const ok = await new Promise<boolean>((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve(false) : reject(err)));
      server.listen(443, address, () => resolve(true));
    });
    if (ok) return address;
  }
}
