// `npm run bench`: every benchmark, one after another, each printing its ratios.
import { healthzBench } from './healthz.bench.ts';

const benches: Array<[string, () => Promise<void>]> = [['healthz', healthzBench]];

for (const [name, bench] of benches) {
  console.log(`\n== ${name}`);
  await bench();
}
