// `npm run fuzz -- --budget N [--seed S] [--engine E] [--case N]`: the fuzz suite's long run (its
// short one is test/fuzz/, in `npm test`). The code is test/support/fuzz/, type-checked with the tests.
import { enableCompileCache } from 'node:module';

enableCompileCache?.();
const { main } = await import('../test/support/fuzz/cli.ts');
try {
  process.exitCode = await main(process.argv.slice(2), (text) => console.log(text));
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 2;
}
