import { parentPort, workerData } from 'node:worker_threads';

/**
 * Asks /healthz every `intervalMs` from its own thread, so a server whose event loop is stuck is
 * seen (a poller on the server's own loop would be stuck with it and measure nothing), and
 * reports every answer slower than `limitMs` with when it was asked, in wall-clock milliseconds.
 */
const { url, intervalMs, limitMs } = workerData as { url: string; intervalMs: number; limitMs: number };
let running = true;
let polls = 0;
let slowest = 0;

parentPort!.on('message', (message: unknown) => {
  if (message === 'stop') running = false;
});

// The first request opens the connection and warms the thread up: it says nothing about the server.
await fetch(url)
  .then((res) => res.text())
  .catch(() => {});
parentPort!.postMessage({ kind: 'ready' });

while (running) {
  const started = Date.now();
  const t0 = performance.now();
  let failure: string | undefined;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    await res.text();
    if (res.status !== 200) failure = `answered ${res.status}`;
  } catch (err) {
    failure = (err as Error).message;
  }
  const ms = performance.now() - t0;
  polls++;
  slowest = Math.max(slowest, ms);
  if (ms > limitMs || failure) parentPort!.postMessage({ kind: 'slow', started, ms, failure });
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, intervalMs - ms)));
}
parentPort!.postMessage({ kind: 'done', polls, slowest });
