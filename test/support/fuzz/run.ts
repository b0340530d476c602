import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { Database } from '../../../src/db/database.ts';
import type { LoopOptions, LoopResult, Failure, CaseWindow } from './case-loop.ts';
import type { FuzzCase } from './cases.ts';
import { LivenessPoller, type LivenessReport, type SlowPoll } from './liveness.ts';
import { countRows } from './writes.ts';

export type { Failure } from './case-loop.ts';

export interface FuzzOptions {
  /** The server under test, and its database (to see what a refused request wrote). */
  base: string;
  db: Database;
  credentials: Record<'admin' | 'agent', string>;
  /** The server's body limit: a case over it may be cut off while it is sent. */
  bodyLimitBytes: number;
  seed: number;
  /** How many cases; one per target (every operation and tool once) when absent. */
  budget?: number;
  /** Only this case (after the run's setup), to replay a failure. */
  only?: number;
  /** A case answered later than this is a failure. */
  caseDeadlineMs?: number;
  /** /healthz must answer within this throughout. */
  livenessLimitMs?: number;
  /** Called after each case, for progress output. */
  onCase?: (index: number, failures: number) => void;
}

export interface FuzzReport {
  seed: number;
  cases: number;
  targets: string[];
  /** Cases by target id. */
  perTarget: Map<string, number>;
  failures: Failure[];
  liveness: LivenessReport;
  /** How long reading the server's offer and the harvest took, in ms. */
  setupMs: number;
  /** The case replayed, when `only` named one: printed whole, which a report's excerpt is not. */
  replayed?: FuzzCase;
  /** The longest the server's event loop was held, in ms. */
  longestStallMs: number;
  /** Slow /healthz answers while the server's own loop ran freely: the machine's, not a failure. */
  busyMachinePolls: number;
  ms: number;
}

/**
 * Fuzzes a live server in this process. The cases are made, sent and checked on a worker thread
 * (fuzz-worker.ts, case-loop.ts); /healthz is polled from another (liveness-worker.ts); this
 * thread, the server's, only answers the worker's row counts and notes every stall of its own
 * event loop, so a slow /healthz answer is charged to the case that held the loop then.
 */
export async function fuzz(options: FuzzOptions): Promise<FuzzReport> {
  const started = performance.now();
  const limitMs = options.livenessLimitMs ?? 100;
  const loop: LoopOptions = {
    base: options.base,
    credentials: options.credentials,
    seed: options.seed,
    caseDeadlineMs: options.caseDeadlineMs ?? 5000,
    bodyLimitBytes: options.bodyLimitBytes,
    ...(options.budget !== undefined ? { budget: options.budget } : {}),
    ...(options.only !== undefined ? { only: options.only } : {}),
  };
  const stalls = new StallMonitor();
  let poller: LivenessPoller | undefined;
  const worker = new Worker(new URL('./fuzz-worker.ts', import.meta.url), { workerData: loop });
  let result: LoopResult;
  let liveness: LivenessReport = { polls: 0, slowestMs: 0, slow: [] };
  try {
    result = await new Promise<LoopResult>((resolve, reject) => {
      worker.on('error', reject);
      worker.on('exit', (code) => reject(new Error(`the fuzz worker exited (${code}) before answering`)));
      worker.on(
        'message',
        (message: {
          kind: string;
          id: number;
          index: number;
          failures: number;
          result: LoopResult;
          message: string;
        }) => {
          switch (message.kind) {
            case 'count':
              void countRows(options.db).then(
                (counts) => worker.postMessage({ kind: 'counts', id: message.id, counts }),
                reject,
              );
              break;
            case 'ready':
              poller = new LivenessPoller(options.base, { intervalMs: 25, limitMs });
              void poller.ready.then(() => {
                stalls.start();
                worker.postMessage({ kind: 'go' });
              });
              break;
            case 'progress':
              options.onCase?.(message.index, message.failures);
              break;
            case 'result':
              resolve(message.result);
              break;
            default:
              reject(new Error(`the fuzz worker failed: ${message.message}`));
          }
        },
      );
    });
  } finally {
    stalls.stop();
    await worker.terminate();
    if (poller) liveness = await poller.stop();
  }
  const byIndex = new Map(result.cases.map((c) => [c.index, c]));
  const charged = liveness.slow
    .map((poll) => ({ poll, stall: longestStallDuring(poll, stalls) }))
    .filter(({ poll, stall }) => chargedToServer(poll, stall, stalls, limitMs));
  const failures = [
    ...result.failures,
    ...charged.map(({ poll, stall }) =>
      slowPollFailure(poll, stall, stalls, result.windows, byIndex, options.seed, limitMs),
    ),
  ];
  const perTarget = new Map<string, number>();
  for (const c of result.cases) perTarget.set(c.target, (perTarget.get(c.target) ?? 0) + 1);
  return {
    seed: options.seed,
    setupMs: result.setupMs,
    ...(options.only !== undefined && result.cases[0] ? { replayed: result.cases[0] } : {}),
    cases: result.cases.length,
    targets: result.targets,
    perTarget,
    failures,
    liveness,
    longestStallMs: Math.max(0, ...stalls.stalls.map((s) => s.ms)),
    busyMachinePolls: liveness.slow.length - charged.length,
    ms: performance.now() - started,
  };
}

/**
 * A time this thread's event loop could not run, as wall-clock milliseconds, and how much of it
 * the thread spent computing: a loop held by code computes throughout; a thread the operating
 * system did not schedule (the machine busy with other work) computes next to nothing.
 */
interface Stall {
  start: number;
  ms: number;
  cpuMs: number;
}

/** A garbage collection of this thread's heap; major when it marked the whole heap, not only the young generation. */
interface Collection {
  start: number;
  ms: number;
  major: boolean;
}

/**
 * Notes every stall of this thread's event loop over 20 ms, from how late a 10 ms timer fires, and
 * the garbage collections of this thread's heap, so a stall can be told apart from a collection.
 */
/** This thread's CPU time, user and system, in ms. */
function threadCpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

class StallMonitor {
  readonly stalls: Stall[] = [];
  readonly collections: Collection[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (entry.duration > 10)
        this.collections.push({
          start: performance.timeOrigin + entry.startTime,
          ms: entry.duration,
          major:
            (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ===
            constants.NODE_PERFORMANCE_GC_MAJOR,
        });
  });

  start(): void {
    this.gc.observe({ entryTypes: ['gc'] });
    let last = performance.now();
    let lastCpu = threadCpuMs();
    this.timer = setInterval(() => {
      const now = performance.now();
      const cpu = threadCpuMs();
      const late = now - last - 10;
      if (late > 20) this.stalls.push({ start: Date.now() - late, ms: late, cpuMs: cpu - lastCpu });
      last = now;
      lastCpu = cpu;
    }, 10);
  }

  stop(): void {
    clearInterval(this.timer);
    this.gc.disconnect();
  }

  /** The collections (all, or the major ones) overlapping a stall, in ms. */
  collectedDuring(stall: Stall, which: 'all' | 'major'): number {
    return this.collections
      .filter((c) => (which === 'all' || c.major) && c.start < stall.start + stall.ms && c.start + c.ms > stall.start)
      .reduce((sum, c) => sum + c.ms, 0);
  }
}

/** The server's longest stall while a slow /healthz answer was awaited. */
function longestStallDuring(poll: SlowPoll, monitor: StallMonitor): Stall | undefined {
  const pollEnd = poll.started + poll.ms;
  const overlapping = monitor.stalls.filter((s) => s.start <= pollEnd && s.start + s.ms >= poll.started);
  return overlapping.reduce<Stall | undefined>((worst, s) => (!worst || s.ms > worst.ms ? s : worst), undefined);
}

/**
 * Whether a slow /healthz answer is the server's doing: no answer, or the server's own thread
 * computing for at least half the limit in one stall while it was awaited, or an answer so late
 * (ten times the limit) that no busy machine excuses it. An answer late while the loop ran freely,
 * or stood still without computing (not scheduled), waited for the machine (other test files
 * share its two cores): that says nothing about a hostile case. Nor does a major collection: it
 * marks the whole heap this process built (the test runner's, the server's caches, ~100 MB), at
 * a cost set by what is live, not by the request it interrupts, and on a busy machine its helper
 * threads starve so the loop's thread marks alone. What a case allocates shows as computing and
 * young-generation collections, which stay charged.
 */
function chargedToServer(poll: SlowPoll, stall: Stall | undefined, monitor: StallMonitor, limitMs: number): boolean {
  if (poll.failure !== undefined || poll.ms > limitMs * 10) return true;
  return stall !== undefined && stall.cpuMs - monitor.collectedDuring(stall, 'major') >= limitMs / 2;
}

/** A slow /healthz answer as a failure: charged to the case during whose window the server's loop stalled longest while the answer was awaited. */
function slowPollFailure(
  poll: SlowPoll,
  stall: Stall | undefined,
  monitor: StallMonitor,
  windows: readonly CaseWindow[],
  cases: ReadonlyMap<number, FuzzCase>,
  seed: number,
  limitMs: number,
): Failure {
  const at = stall ? stall.start : poll.started;
  const window = windows.find((w) => w.start <= at + (stall?.ms ?? poll.ms) && w.end >= at);
  const fuzzCase = (window && cases.get(window.index)) ?? {
    index: -1,
    target: '(between cases)',
    credential: 'anonymous' as const,
    call: { kind: 'http' as const, method: 'GET', path: '/healthz', headers: {} },
    notes: [],
  };
  // Collections during the stall: how much of it was the heap's and not the request's code.
  const collected = stall ? monitor.collectedDuring(stall, 'all') : 0;
  const cause = stall
    ? `the server's event loop stalled ${Math.round(stall.ms)} ms (${Math.round(stall.cpuMs)} ms computing)${collected > 0 ? `, ${Math.round(collected)} ms of it collecting garbage` : ''}`
    : 'no stall of the server’s event loop';
  return {
    seed,
    fuzzCase,
    finding: {
      kind: `/healthz slower than ${limitMs} ms`,
      detail: `${Math.round(poll.ms)} ms${poll.failure ? ` (${poll.failure})` : ''}; ${cause}`,
    },
  };
}
