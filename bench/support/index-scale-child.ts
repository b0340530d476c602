// Run as its own process (`node --expose-gc --max-old-space-size=4096 index-scale-child.ts`) by
// lookups.bench.ts, so a heap of this size neither disturbs nor is disturbed by the HTTP parts.
// Builds the authorization index from generated snapshot items (no database), then times checks.
import { AuthorizationIndex, authorizationStatus, checkAuthorization } from '../../src/registry/lookups/index.ts';
import type { CheckRequest, CheckStatus } from '../../src/registry/lookups/check.ts';
import {
  agentOf,
  agentUrl,
  delegationOf,
  identifierOf,
  publisherDomain,
  publisherItems,
  PROPERTIES_PER_PUBLISHER,
  PUBLISHERS,
  AGENTS,
} from './scale-world.ts';

const CHECKS = Number(process.env.BENCH_INDEX_CHECKS ?? 1_000_000);
const CHUNK = 1000;

type Json = Record<string, unknown>;
/** This thread's CPU time: on a busy machine it says what the work cost, where wall time also says how long it waited. */
const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

// How fast this machine is right now, to read the numbers below by: a string key built and looked
// up in a small Map, the unit of work a check repeats a few times (on its large maps).
const calibration = (() => {
  const map = new Map(
    Array.from({ length: 1000 }, (_, i) => [`p${i}.example\u0000https://sales.agent-${i}.example/mcp`, i]),
  );
  let sum = 0;
  const started = process.threadCpuUsage();
  for (let i = 0; i < 5_000_000; i++)
    sum += map.get(`p${i % 1000}.example\u0000https://sales.agent-${i % 1000}.example/mcp`) ?? 0;
  if (sum === 0) throw new Error('calibration found nothing');
  return (cpuMs(process.threadCpuUsage(started)) * 1e6) / 5_000_000;
})();

// Build: payloads are generated a chunk at a time and passed through JSON, as the follower
// receives them parsed from the database (fresh strings and objects per item); only `apply` is timed.
const index = new AuthorizationIndex();
let applyMs = 0;
let applyCpuMs = 0;
let generateMs = 0;
let edges = 0;
for (let first = 0; first < PUBLISHERS; first += CHUNK) {
  const generating = performance.now();
  const chunk: Array<[string, Json]> = [];
  for (let i = first; i < Math.min(PUBLISHERS, first + CHUNK); i++) {
    const made = publisherItems(i);
    chunk.push(...made.items);
    edges += made.edges;
  }
  const parsed = JSON.parse(JSON.stringify(chunk)) as Array<[string, Json]>;
  const applying = performance.now();
  const applyingCpu = process.threadCpuUsage();
  generateMs += applying - generating;
  for (const [kind, payload] of parsed) index.apply(kind, payload);
  applyMs += performance.now() - applying;
  applyCpuMs += cpuMs(process.threadCpuUsage(applyingCpu));
}
gc();
gc();
const { heapUsed: heap, arrayBuffers } = process.memoryUsage();
const size = index.size;

// Checks, generated before the clock starts (seeded, so every run asks the same questions).
let seed = 42;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (n: number) => Math.floor(random() * n);
// Impressions are not spread evenly: a few publishers get most. Zipf (s = 1) over publishers in a
// scattered order of popularity, next to the uniform draw that makes every check a cold one.
const zipfCdf = (() => {
  const cdf = new Float64Array(PUBLISHERS);
  let sum = 0;
  for (let rank = 0; rank < PUBLISHERS; rank++) cdf[rank] = sum += 1 / (rank + 1);
  return cdf.map((x) => x / sum);
})();
function zipfPublisher(): number {
  const u = random();
  let lo = 0;
  let hi = PUBLISHERS - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (zipfCdf[mid]! < u) lo = mid + 1;
    else hi = mid;
  }
  return (lo * 7919) % PUBLISHERS;
}
let pickPublisher = () => pick(PUBLISHERS);

function randomCheck(): CheckRequest {
  const i = pickPublisher();
  const k = pick(PROPERTIES_PER_PUBLISHER);
  const { type, value } = identifierOf(i, k);
  const byIdentifier = { identifier: { type, value } };
  const r = random();
  // Granted and declared: authorized (unknown on a stale publisher).
  if (r < 0.35) {
    const j = pick(2);
    return { agent: agentUrl(agentOf(i, j)), property: byIdentifier, delegation_type: delegationOf(j) };
  }
  if (r < 0.45)
    return {
      agent: agentUrl(agentOf(i, 1)),
      property: { publisher_domain: publisherDomain(i), property_id: `prop_${k}` },
      delegation_type: undefined,
    };
  // An agent the publisher never named.
  if (r < 0.6) return { agent: agentUrl((i * 7 + 1) % AGENTS), property: byIdentifier, delegation_type: undefined };
  // Granted, but its operator does not declare the property.
  if (r < 0.75) {
    const j = 2 + pick(7);
    return { agent: agentUrl(agentOf(i, j)), property: byIdentifier, delegation_type: delegationOf(j) };
  }
  // A delegation the publisher does not state.
  if (r < 0.8) return { agent: agentUrl(agentOf(i, 1)), property: byIdentifier, delegation_type: 'direct' };
  // The narrower grants: covering the property or not.
  if (r < 0.85) return { agent: agentUrl(agentOf(i, 9 + pick(2))), property: byIdentifier, delegation_type: undefined };
  // Identifiers and publishers nobody's adagents.json declares.
  if (r < 0.95)
    return {
      agent: agentUrl(agentOf(i, 0)),
      property: { identifier: { type: 'domain', value: `u${pick(1e9)}.example` } },
      delegation_type: undefined,
    };
  return {
    agent: agentUrl(agentOf(i, 0)),
    property: { publisher_domain: `u${pick(1e9)}.example`, property_id: 'prop_0' },
    delegation_type: undefined,
  };
}
// Each batch of checks is generated just before it is timed, as a server parses a request just
// before checking it: the request's own strings are fresh in cache, the index is not.
const BATCH = 1000;
// Through JSON, as a server receives them: flat strings, not the concatenations generated here.
const batch = (n: number) => JSON.parse(JSON.stringify(Array.from({ length: n }, randomCheck))) as CheckRequest[];

function timeChecks(check: (index: AuthorizationIndex, req: CheckRequest) => { status: CheckStatus }): {
  nsPerCheck: number;
  cpuNsPerCheck: number;
  tally: Record<CheckStatus, number>;
} {
  const tally: Record<CheckStatus, number> = { authorized: 0, unauthorized: 0, unknown: 0 };
  for (let done = 0; done < Math.min(CHECKS, 200_000); done += BATCH) for (const c of batch(BATCH)) check(index, c);
  let checkNs = 0;
  let checkCpuUs = 0;
  for (let done = 0; done < CHECKS; done += BATCH) {
    const checks = batch(Math.min(BATCH, CHECKS - done));
    const started = process.hrtime.bigint();
    const startedCpu = process.threadCpuUsage();
    for (const c of checks) tally[check(index, c).status]++;
    checkNs += Number(process.hrtime.bigint() - started);
    const cpu = process.threadCpuUsage(startedCpu);
    checkCpuUs += cpu.user + cpu.system;
  }
  return { nsPerCheck: checkNs / CHECKS, cpuNsPerCheck: (checkCpuUs * 1000) / CHECKS, tally };
}
const uniform = timeChecks(authorizationStatus);
const uniformExplained = timeChecks(checkAuthorization);
pickPublisher = zipfPublisher;
const skewed = timeChecks(authorizationStatus);
const skewedExplained = timeChecks(checkAuthorization);

const n = (x: number) => x.toLocaleString('en-US');
console.log(
  `lookups index machine calibration: ${Math.round(calibration)} ns main-thread CPU per string key built and looked up in a 1,000-entry Map`,
);
const percent = (x: number) => `${Math.round((x / CHECKS) * 100)}%`;
console.log(
  `lookups index build (in process, no database): ${n(size.properties)} properties, ${n(size.grants)} grants, ${n(edges)} agent-property edges, ${n(size.publishers)} publishers: apply ${(applyMs / 1000).toFixed(1)} s wall, ${(applyCpuMs / 1000).toFixed(1)} s main-thread CPU (+${(generateMs / 1000).toFixed(1)} s generating and parsing payloads)`,
);
console.log(
  `lookups index memory after build and gc: ${((heap + arrayBuffers) / 2 ** 30).toFixed(2)} GiB (heap used ${(heap / 2 ** 30).toFixed(2)} GiB, typed arrays of the decision table ${(arrayBuffers / 2 ** 30).toFixed(2)} GiB; target <= 2 GiB)`,
);
const checkLine = (
  label: string,
  { nsPerCheck, cpuNsPerCheck, tally }: ReturnType<typeof timeChecks>,
  explained: ReturnType<typeof timeChecks>,
) =>
  console.log(
    `lookups index check (authorizationStatus: the status and violation code), ${label}: ${Math.round(nsPerCheck)} ns per check wall, ${Math.round(cpuNsPerCheck)} ns main-thread CPU, over ${n(CHECKS)} random checks (${percent(tally.authorized)} authorized, ${percent(tally.unauthorized)} unauthorized, ${percent(tally.unknown)} unknown; target <= 2000 ns); with the evidence an HTTP answer renders (checkAuthorization): ${Math.round(explained.nsPerCheck)} ns`,
  );
checkLine('publishers drawn uniformly (every check a cold one)', uniform, uniformExplained);
checkLine('publishers drawn Zipf s=1 (traffic-shaped)', skewed, skewedExplained);
