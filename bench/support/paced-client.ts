import net from 'node:net';
import type { PacedOptions, PacedResult } from './paced-load.ts';

/**
 * The open-loop client itself, run in a process of its own (see paced-load.ts). It speaks just
 * enough HTTP/1.1 over raw keep-alive sockets for a GET answered with a content-length: requests
 * are bytes built before the clock starts and a response costs a header scan, so the client's own
 * work stays in microseconds and its pauses do not pass for the server's.
 *
 * Request i falls due at start + i/rate whatever became of the earlier ones. The loop yields with
 * setImmediate rather than a timer, so a due request goes out within microseconds (a timer would
 * fire up to a millisecond late); a request due while every connection is busy waits in a queue.
 * Latency counts from when the request fell due: queueing and any lag of the client are charged
 * against the answer, never hidden (no coordinated omission). The lag alone is reported apart.
 */
export async function runPaced(
  origin: string,
  paths: readonly string[],
  { rate, seconds, connections, headers = {} }: PacedOptions,
): Promise<PacedResult> {
  const { hostname, port } = new URL(origin);
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const requests = paths.map((path) =>
    Buffer.from(
      `GET ${path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\nconnection: keep-alive\r\n${extra}\r\n`,
      'latin1',
    ),
  );
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const latencies = new Float64Array(total);
  const lags = new Float64Array(total);
  let errors = 0;
  let non2xx = 0;
  let done = 0;
  let start = 0;
  const idle: Connection[] = [];
  const queued: number[] = [];
  let head = 0;

  let finished!: () => void;
  const allDone = new Promise<void>((resolve) => (finished = resolve));

  class Connection {
    readonly socket: net.Socket;
    /** The request in flight on this connection, -1 for the warm-up one, undefined when idle. */
    private current: number | undefined;
    private buffered: Buffer | null = null;
    onWarm: (() => void) | null = null;

    constructor() {
      this.socket = net.connect(Number(port), hostname);
      this.socket.setNoDelay(true);
      this.socket.on('data', (chunk) => this.read(chunk));
      this.socket.on('error', () => this.fail());
      this.socket.on('close', () => this.fail());
    }

    send(i: number): void {
      this.current = i;
      this.socket.write(requests[(i < 0 ? 0 : i) % requests.length]!);
    }

    private read(chunk: Buffer): void {
      const data = this.buffered ? Buffer.concat([this.buffered, chunk]) : chunk;
      const headerEnd = data.indexOf('\r\n\r\n');
      if (headerEnd < 0) return void (this.buffered = data);
      const lengthAt = data.subarray(0, headerEnd).toString('latin1').toLowerCase().indexOf('\r\ncontent-length:');
      const length = lengthAt < 0 ? 0 : parseInt(data.toString('latin1', lengthAt + 17, headerEnd).trim(), 10);
      if (data.length < headerEnd + 4 + length) return void (this.buffered = data);
      this.buffered = null;
      const status = data.readUInt8(9) - 48;
      this.complete(status !== 2);
    }

    private complete(failed: boolean): void {
      const i = this.current!;
      this.current = undefined;
      if (i < 0) return this.onWarm?.();
      latencies[i] = performance.now() - due(i);
      if (failed) non2xx++;
      if (++done === total) finished();
      this.next();
    }

    next(): void {
      if (head < queued.length) this.send(queued[head++]!);
      else idle.push(this);
    }

    private fail(): void {
      if (this.current === undefined || this.current < 0) return;
      const i = this.current;
      this.current = undefined;
      latencies[i] = performance.now() - due(i);
      errors++;
      if (++done === total) finished();
    }
  }

  const due = (i: number) => start + i * interval;
  // Connections open and answer once before the clock starts: their handshakes are not measured.
  const pool = await Promise.all(
    Array.from({ length: connections }, async () => {
      const connection = new Connection();
      await new Promise<void>((resolve) => {
        connection.onWarm = resolve;
        connection.send(-1);
      });
      return connection;
    }),
  );
  idle.push(...pool);

  start = performance.now();
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next < total && due(next) <= now) {
        lags[next] = now - due(next);
        const connection = idle.pop();
        if (connection) connection.send(next++);
        else queued.push(next++);
      }
      if (next < total) setImmediate(tick);
      else resolve();
    };
    tick();
  });
  const sentIn = performance.now() - start;
  await allDone;
  for (const connection of pool) connection.socket.destroy();

  latencies.sort();
  lags.sort();
  const at = (values: Float64Array, q: number) => values[Math.min(total - 1, Math.floor(q * total))]!;
  return {
    sentPerSecond: total / (sentIn / 1000),
    p50Ms: at(latencies, 0.5),
    p99Ms: at(latencies, 0.99),
    maxMs: latencies[total - 1]!,
    lagP99Ms: at(lags, 0.99),
    errors,
    non2xx,
  };
}
