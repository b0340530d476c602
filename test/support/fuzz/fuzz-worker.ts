import { parentPort, workerData } from 'node:worker_threads';
import { runCases, type LoopOptions } from './case-loop.ts';
import type { Counts } from './writes.ts';

/**
 * The fuzzer's client side, on its own thread: making cases, the SDK clients, checking answers.
 * The server's thread then does only the server's work, so a stall of its event loop is the
 * server's. Row counts are asked of that thread, which holds the database.
 */
const options = workerData as LoopOptions;
const port = parentPort!;
let nextId = 0;
const pending = new Map<number, (counts: Counts) => void>();
let go: (() => void) | undefined;
port.on('message', (message: { kind: string; id: number; counts: Counts }) => {
  if (message.kind === 'go') go?.();
  else if (message.kind === 'counts') {
    pending.get(message.id)?.(message.counts);
    pending.delete(message.id);
  }
});
const countRows = () =>
  new Promise<Counts>((resolve) => {
    const id = nextId++;
    pending.set(id, resolve);
    port.postMessage({ kind: 'count', id });
  });

try {
  const result = await runCases(
    options,
    countRows,
    () =>
      new Promise<void>((resolve) => {
        go = resolve;
        port.postMessage({ kind: 'ready' });
      }),
    (index, failures) => port.postMessage({ kind: 'progress', index, failures }),
  );
  port.postMessage({ kind: 'result', result });
} catch (err) {
  port.postMessage({ kind: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
}
