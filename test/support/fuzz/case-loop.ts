import { Random } from '../random.ts';
import { startCanary } from './canary.ts';
import type { CaseContext, FuzzCase } from './cases.ts';
import { Recorder } from './exchange.ts';
import { checkExchange, type Finding } from './oracle.ts';
import { describe, payloadBytes, requestTextOf, send } from './send.ts';
import { setUp } from './setup.ts';
import type { Counts } from './writes.ts';
import { changed } from './writes.ts';

export interface LoopOptions {
  base: string;
  credentials: Record<'admin' | 'agent', string>;
  seed: number;
  /** How many cases; one per target when absent. */
  budget?: number;
  only?: number;
  caseDeadlineMs: number;
  /** The server's BODY_LIMIT_BYTES. */
  bodyLimitBytes: number;
}

/** A case that went wrong: what was sent and one thing wrong with what came back. */
export interface Failure {
  seed: number;
  fuzzCase: FuzzCase;
  finding: Finding;
}

/** When a case ran, in wall-clock milliseconds (the same clock in every thread). */
export interface CaseWindow {
  index: number;
  start: number;
  end: number;
}

export interface LoopResult {
  /** How long reading the server's offer and the harvest took, in ms. */
  setupMs: number;
  targets: string[];
  cases: FuzzCase[];
  windows: CaseWindow[];
  failures: Failure[];
}

/**
 * Runs the cases, one at a time: case i goes to target i modulo the number of targets (so every
 * operation and tool gets a case in the first round), with its own randomness derived from the
 * seed and i, so `only: i` makes the same case again. Each case is checked (oracle.ts) on every
 * HTTP exchange it made, its refusal's envelope, the rows a refused case must not have written,
 * the SSRF canary, and its deadline. `countRows` is asked of the thread that holds the database.
 */
export async function runCases(
  options: LoopOptions,
  countRows: () => Promise<Counts>,
  beforeCases: () => Promise<void>,
  onCase?: (index: number, failures: number) => void,
): Promise<LoopResult> {
  const setupStarted = performance.now();
  const recorder = new Recorder();
  const canary = await startCanary();
  const world = await setUp({ base: options.base, recorder, credentials: options.credentials, seed: options.seed });
  const failures: Failure[] = [];
  const windows: CaseWindow[] = [];
  const cases: FuzzCase[] = [];
  const setupMs = performance.now() - setupStarted;
  try {
    // Hits of the setup's own requests are not any case's.
    canary.takeHits();
    await beforeCases();
    const budget = options.budget ?? world.targets.length;
    const indexes = options.only !== undefined ? [options.only] : Array.from({ length: budget }, (_, i) => i);
    for (const index of indexes) {
      const target = world.targets[index % world.targets.length]!;
      const ctx: CaseContext = {
        random: new Random(caseSeed(options.seed, index)),
        index,
        dictionary: world.dictionary,
        resolve: world.resolve,
        canaryUrl: canary.urlFor(index),
        credentials: options.credentials,
      };
      const fuzzCase: FuzzCase = { index, target: target.id, ...target.make(ctx) };
      cases[index] = fuzzCase;
      const before = await countRows();
      const deadline = new AbortController();
      const timer = setTimeout(
        () => deadline.abort(new Error(`no answer within ${options.caseDeadlineMs} ms`)),
        options.caseDeadlineMs,
      );
      recorder.begin(deadline.signal, fuzzCase.call.headers);
      const findings: Finding[] = [];
      const start = Date.now();
      const sent = await send(fuzzCase, { base: options.base, recorder, mcp: world.mcp, a2a: world.a2a }, findings);
      clearTimeout(timer);
      const refused = sent.refused;
      if (deadline.signal.aborted)
        findings.push({ kind: 'no answer in time', detail: `no answer within ${options.caseDeadlineMs} ms` });
      // No answer at all is a connection the server dropped, unless the request was over the body
      // limit: the server may answer 413 (or 401) before the body is read and close the connection
      // while the client still writes, which a fetch reports as EPIPE instead of the answer.
      else if (recorder.exchanges.length === 0 && payloadBytes(fuzzCase) <= options.bodyLimitBytes) {
        findings.push({
          kind: 'no HTTP answer',
          detail: sent.thrown === undefined ? 'the client got no answer' : describe(sent.thrown),
        });
      }
      windows.push({ index, start, end: Date.now() });
      const requestText = requestTextOf(fuzzCase);
      for (const exchange of recorder.exchanges) findings.push(...checkExchange(exchange, requestText));
      if (refused) {
        const writes = changed(before, await countRows());
        if (writes.length > 0) findings.push({ kind: 'refused request wrote', detail: writes.join(', ') });
      }
      for (const hit of canary.takeHits()) {
        const culprit = hit.caseIndex !== undefined ? cases[hit.caseIndex] : undefined;
        failures.push({
          seed: options.seed,
          fuzzCase: culprit ?? fuzzCase,
          finding: { kind: 'fetched a private address (SSRF canary)', detail: hit.request },
        });
      }
      for (const finding of findings) failures.push({ seed: options.seed, fuzzCase, finding });
      onCase?.(index, failures.length);
    }
  } finally {
    await world.close();
    await canary.close();
  }
  return { setupMs, targets: world.targets.map((t) => t.id), cases: cases.filter(Boolean), windows, failures };
}

/** A case's own randomness, from the run's seed and its number. */
export function caseSeed(seed: number, index: number): number {
  let h = (seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
