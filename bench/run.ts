// `npm run bench`: every benchmark, one after another, each printing its ratios;
// `npm run bench -- mcp feed` runs only those named. The soak (ten minutes) runs only when named;
// flags go to the benches that take them: `npm run bench -- soak --duration 60 --rate 30 --seed 7`.
import { parseBenchArgs, type BenchFlags } from './support/bench-flags.ts';
import { healthzBench } from './healthz.bench.ts';
import { feedBench } from './feed.bench.ts';
import { mcpBench } from './mcp.bench.ts';
import { registryMcpBench } from './registry-mcp.bench.ts';
import { resolveBench } from './resolve.bench.ts';
import { crawlBench } from './crawl.bench.ts';
import { lookupsBench } from './lookups.bench.ts';
import { salesBench } from './sales.bench.ts';
import { signalsBench } from './signals.bench.ts';
import { creativeBench } from './creative.bench.ts';
import { agentSearchBench } from './agent-search.bench.ts';
import { discoverAgentBench } from './discover-agent.bench.ts';
import { governanceBench } from './governance.bench.ts';
import { brandBench } from './brand.bench.ts';
import { pagesBench } from './pages.bench.ts';
import { mirrorBench } from './mirror.bench.ts';
import { soakBench } from './soak.bench.ts';

const benches: Array<[string, (flags: BenchFlags) => Promise<void>]> = [
  ['healthz', healthzBench],
  ['resolve', resolveBench],
  ['feed', feedBench],
  ['mcp', mcpBench],
  ['registry-mcp', registryMcpBench],
  ['crawl', crawlBench],
  ['lookups', lookupsBench],
  ['sales', salesBench],
  ['signals', signalsBench],
  ['creative', creativeBench],
  ['agent-search', agentSearchBench],
  ['discover-agent', discoverAgentBench],
  ['governance', governanceBench],
  ['brand', brandBench],
  ['pages', pagesBench],
  ['mirror', mirrorBench],
  ['soak', soakBench],
];

/** Benches too long for a run of them all: each runs only when named. */
const onlyWhenNamed = ['soak'];

const { names: only, flags } = parseBenchArgs(process.argv.slice(2));
const unknown = only.filter((name) => !benches.some(([known]) => known === name));
if (unknown.length > 0)
  throw new Error(`unknown benchmark ${unknown.join(', ')}; known: ${benches.map(([name]) => name).join(', ')}`);
for (const [name, bench] of benches.filter(([name]) =>
  only.length === 0 ? !onlyWhenNamed.includes(name) : only.includes(name),
)) {
  console.log(`\n== ${name}`);
  await bench(flags);
}
