import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A server on loopback that no request of the registry or its agents should ever reach: its URL
 * goes into every URL-shaped field the fuzzer fills, with the case's number in the path
 * (`/case-N/...`), and every fetch of a user-supplied URL must refuse a private address. A hit
 * names the case that caused it, even when the fetch came later (a webhook, a queued crawl).
 */
export interface Canary {
  /** The URL for case `index`. */
  urlFor(index: number): string;
  /** Hits since the last call, each as the case number it named and the request line. */
  takeHits(): Array<{ caseIndex: number | undefined; request: string }>;
  close(): Promise<void>;
}

export async function startCanary(): Promise<Canary> {
  let hits: Array<{ caseIndex: number | undefined; request: string }> = [];
  const server = createServer((req, res) => {
    const match = /^\/case-(\d+)\b/.exec(req.url ?? '');
    hits.push({
      caseIndex: match ? Number(match[1]) : undefined,
      request: `${req.method} ${req.url} (user-agent: ${req.headers['user-agent'] ?? '-'})`,
    });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    urlFor: (index) => `http://127.0.0.1:${port}/case-${index}`,
    takeHits: () => {
      const taken = hits;
      hits = [];
      return taken;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
