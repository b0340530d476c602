import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  seconds: number;
  connections: number;
  /** A request sequence each connection cycles through (paths, methods, bodies). */
  requests?: autocannon.Request[];
  method?: autocannon.Request['method'];
  headers?: Record<string, string>;
  body?: string;
}

/** Drives one URL with autocannon and returns what a comparison needs. */
export async function load(url: string, { seconds, connections, ...request }: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({ url, duration: seconds, connections, pipelining: 1, ...request });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export const benchOptions: LoadOptions = {
  seconds: Number(process.env.BENCH_SECONDS ?? 5),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
};
