import { Pool } from 'undici';

export interface PacedResult {
  /** Requests per second actually sent (below the asked rate only if the client fell behind). */
  sentPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** How late the client handed requests over, p99: its timers fire at best every millisecond. */
  lagP99Ms: number;
  errors: number;
  non2xx: number;
}

export interface PacedOptions {
  rate: number;
  seconds: number;
  connections: number;
}

/**
 * Open-loop load at a fixed rate over keep-alive connections: request i is due at start + i/rate
 * whatever became of the earlier ones, so a slow answer delays no later request and a server stall
 * is charged to every request that queues behind it (no coordinated omission). Latency counts from
 * the moment the request is handed to the pool (waiting there for a busy connection included), not
 * from when it fell due: timers fire at best every millisecond, and that lag is the client's, not
 * the server's (it is reported apart). autocannon's own rate limit is no use here: each connection
 * sends its quota for the second back to back and then idles, so "half load" is a burst at full
 * load; and its histogram counts whole milliseconds.
 */
export async function pacedLoad(origin: string, paths: readonly string[], { rate, seconds, connections }: PacedOptions): Promise<PacedResult> {
  const pool = new Pool(origin, { connections, pipelining: 1 });
  try {
    // Connections open before the clock starts: their handshakes are not what is measured.
    await Promise.all(Array.from({ length: connections }, (_, i) => pool.request({ path: paths[i % paths.length]!, method: 'GET' }).then((r) => r.body.arrayBuffer())));
    const total = Math.round(rate * seconds);
    const interval = 1000 / rate;
    const latencies = new Float64Array(total);
    const lags = new Float64Array(total);
    let errors = 0;
    let non2xx = 0;
    let lastSent = 0;
    const start = performance.now();
    await new Promise<void>((resolve) => {
      let done = 0;
      let next = 0;
      const one = async (i: number) => {
        const sent = performance.now();
        lags[i] = sent - (start + i * interval);
        try {
          const res = await pool.request({ path: paths[i % paths.length]!, method: 'GET' });
          await res.body.arrayBuffer();
          if (res.statusCode < 200 || res.statusCode > 299) non2xx++;
        } catch {
          errors++;
        }
        latencies[i] = performance.now() - sent;
        if (++done === total) resolve();
      };
      const tick = () => {
        const now = performance.now();
        while (next < total && start + next * interval <= now) void one(next++);
        lastSent = now;
        // Timers fire at best every millisecond: what falls due in between goes out together.
        if (next < total) setTimeout(tick, Math.max(0, start + next * interval - performance.now()));
      };
      tick();
    });
    latencies.sort();
    lags.sort();
    const at = (values: Float64Array, q: number) => values[Math.min(total - 1, Math.floor(q * total))]!;
    return {
      sentPerSecond: total / ((lastSent - start) / 1000),
      p50Ms: at(latencies, 0.5),
      p99Ms: at(latencies, 0.99),
      maxMs: latencies[total - 1]!,
      lagP99Ms: at(lags, 0.99),
      errors,
      non2xx,
    };
  } finally {
    await pool.close();
  }
}
