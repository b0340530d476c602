import { inChild } from './load.ts';

export interface PacedResult {
  /** Requests per second actually sent (below the asked rate only if the client fell behind). */
  sentPerSecond: number;
  /** From when each request fell due to when its answer was read. */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** How late the client put requests on the wire or in its queue, p99: its own share of the latency. */
  lagP99Ms: number;
  errors: number;
  non2xx: number;
}

export interface PacedOptions {
  rate: number;
  seconds: number;
  connections: number;
  /** Sent with every request (a credential). */
  headers?: Record<string, string>;
}

/**
 * Open-loop load at a fixed rate over keep-alive connections, from a process of its own (the
 * client is paced-client.ts): a slow answer delays no later request, and a server stall is charged
 * to every request that falls due during it. autocannon's own rate limit is no use here: each
 * connection sends its quota for the second back to back and then idles, so "half load" is a
 * burst at full load; and its histogram counts whole milliseconds.
 */
export function pacedLoad(origin: string, paths: readonly string[], options: PacedOptions): Promise<PacedResult> {
  return inChild({ kind: 'paced', origin, paths, ...options });
}
