// `npm run bench`: every benchmark, one after another, each printing its ratios.
import { healthzBench } from './healthz.bench.ts';
import { feedBench } from './feed.bench.ts';
import { mcpBench } from './mcp.bench.ts';
import { resolveBench } from './resolve.bench.ts';
import { crawlBench } from './crawl.bench.ts';

const benches: Array<[string, () => Promise<void>]> = [
  ['healthz', healthzBench],
  ['resolve', resolveBench],
  ['feed', feedBench],
  ['mcp', mcpBench],
  ['crawl', crawlBench],
];

for (const [name, bench] of benches) {
  console.log(`\n== ${name}`);
  await bench();
}
