import { Pool } from 'undici';
import { seededRandom } from './seeded-random.ts';
import { mcpOutcome, seededPicker, soakOperations, type SoakContext } from './soak-mix.ts';

export interface SoakOptions {
  /** Base URLs of the instances; each request goes to one of them, picked by the seeded sequence. */
  instances: string[];
  rate: number;
  seconds: number;
  /** Keep-alive connections per instance. */
  connections: number;
  seed: number;
  context: SoakContext;
}

export interface OperationResult {
  name: string;
  count: number;
  /** Answers by HTTP status. */
  statuses: Record<string, number>;
  /** Tool errors of MCP answers (HTTP 200) by code. */
  agentErrors: Record<string, number>;
  /** Requests that got no answer (connection refused or reset, timeout). */
  transportErrors: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface SoakResult {
  sent: number;
  sentPerSecond: number;
  /** How late the client put requests out, p99: its own share of the latency. */
  lagP99Ms: number;
  operations: OperationResult[];
  /** Requests sent to each instance, in the order of `instances`. */
  perInstance: number[];
  /** p99 of every request falling due in each tenth of the run: whether latency drifts as the run goes on. */
  p99ByTenth: number[];
  /** Tasks the agents accepted as `submitted`, whose completion should arrive as a webhook. */
  submittedTaskIds: string[];
}

/** An answer still outstanding this long counts as a transport error: the run must end. */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The soak's open-loop client, run in a process of its own (load-child.ts). Request i falls due at
 * start + i/rate whatever became of the earlier ones; its operation, instance and parameters come
 * from the seeded sequence (the weights of soak-mix.ts), so two runs with one seed send the same
 * requests. Latency counts from when the request fell due, queueing in the connection pool
 * included. Unlike paced-client.ts it waits on a timer rather than spinning on setImmediate: at a
 * soak's tens of requests a second a timer's millisecond of lateness is charged to the request
 * anyway, and spinning would take one of the machine's two cores for the whole run.
 */
export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const { instances, rate, seconds, connections, seed, context } = options;
  const random = seededRandom(seed);
  const pick = seededPicker(random, seed);
  const totalWeight = soakOperations.reduce((sum, op) => sum + op.weight, 0);
  const chooseOperation = () => {
    let point = random() * totalWeight;
    for (const [index, op] of soakOperations.entries()) if ((point -= op.weight) < 0) return index;
    return soakOperations.length - 1;
  };

  const pools = instances.map(
    (base) =>
      new Pool(base, {
        connections,
        pipelining: 1,
        headersTimeout: REQUEST_TIMEOUT_MS,
        bodyTimeout: REQUEST_TIMEOUT_MS,
      }),
  );
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const latencies = soakOperations.map(() => [] as number[]);
  const byTenth = Array.from({ length: 10 }, () => [] as number[]);
  const results: OperationResult[] = soakOperations.map((op) => ({
    name: op.name,
    count: 0,
    statuses: {},
    agentErrors: {},
    transportErrors: 0,
    p50Ms: 0,
    p99Ms: 0,
    maxMs: 0,
  }));
  const lags = new Float64Array(total);
  const submittedTaskIds: string[] = [];
  const perInstance = instances.map(() => 0);
  const inFlight = new Set<Promise<void>>();
  const count = (map: Record<string, number>, key: string) => (map[key] = (map[key] ?? 0) + 1);

  const send = async (index: number, due: number) => {
    pick.sequence = index;
    const opIndex = chooseOperation();
    const op = soakOperations[opIndex]!;
    const instance = Math.floor(random() * instances.length);
    const request = op.build(pick, instances[instance]!, context);
    const result = results[opIndex]!;
    result.count++;
    perInstance[instance]!++;
    try {
      const res = await pools[instance]!.request({
        method: request.method,
        path: request.path,
        headers: request.headers,
        body: request.body,
      });
      count(result.statuses, String(res.statusCode));
      if (op.mcp && res.statusCode === 200) {
        const outcome = mcpOutcome(await res.body.text());
        if (outcome.agentError) count(result.agentErrors, outcome.agentError);
        if (outcome.submittedTaskId) submittedTaskIds.push(outcome.submittedTaskId);
      } else await res.body.dump();
    } catch {
      result.transportErrors++;
    }
    const latency = performance.now() - due;
    latencies[opIndex]!.push(latency);
    byTenth[Math.floor((index * 10) / total)]!.push(latency);
  };

  const start = performance.now();
  const due = (i: number) => start + i * interval;
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next < total && due(next) <= now) {
        lags[next] = now - due(next);
        const sending = send(next, due(next));
        inFlight.add(sending);
        void sending.finally(() => inFlight.delete(sending));
        next++;
      }
      if (next < total) setTimeout(tick, Math.max(0, due(next) - performance.now()));
      else resolve();
    };
    tick();
  });
  const sentIn = performance.now() - start;
  // Every request has its own timeout, so this wait is bounded.
  await Promise.all(inFlight);
  await Promise.all(pools.map((pool) => pool.close()));

  for (const [i, list] of latencies.entries())
    Object.assign(results[i]!, { p50Ms: quantile(list, 0.5), p99Ms: quantile(list, 0.99), maxMs: quantile(list, 1) });
  lags.sort();
  return {
    sent: total,
    sentPerSecond: total / (sentIn / 1000),
    lagP99Ms: lags[Math.min(total - 1, Math.floor(0.99 * total))] ?? 0,
    operations: results,
    perInstance,
    p99ByTenth: byTenth.map((list) => quantile(list, 0.99)),
    submittedTaskIds,
  };
}

/** The q-quantile of `values` (sorted here, in place); 0 for none. */
function quantile(values: number[], q: number): number {
  values.sort((a, b) => a - b);
  return values[Math.min(values.length - 1, Math.floor(q * values.length))] ?? 0;
}
