import { parseArgs } from 'node:util';
import { engines, type TestEngine } from '../engines.ts';
import { formatReport } from './report.ts';
import { fuzz } from './run.ts';
import { startFuzzServer } from './server.ts';

const usage = `npm run fuzz -- [--budget N] [--seed S] [--engine pglite|postgres] [--case N] [--deadline MS] [--liveness MS]

  --budget N     cases per engine (default 2000)
  --seed S       the run's seed (default: a random one, printed); the same seed makes the same cases
  --engine E     only this engine (default: both)
  --case N       replay case N of the seed alone, after the same setup
  --deadline MS  a case answered later than this fails (default 5000)
  --liveness MS  /healthz must answer within this throughout (default 100)`;

/** `npm run fuzz`: runs the fuzzer against a fresh server of each engine and prints what it found; exits 1 on any failure. */
export async function main(argv: string[], print: (text: string) => void): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      budget: { type: 'string' },
      seed: { type: 'string' },
      engine: { type: 'string' },
      case: { type: 'string' },
      deadline: { type: 'string' },
      liveness: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    print(usage);
    return 0;
  }
  const number = (name: string, text: string | undefined, fallback: number) => {
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} takes a whole number, got ${text}\n\n${usage}`);
    return n;
  };
  const seed = number('seed', values.seed, Math.floor(Math.random() * 2 ** 31));
  const budget = number('budget', values.budget, 2000);
  const only = values.case === undefined ? undefined : number('case', values.case, 0);
  const chosen: TestEngine[] = values.engine ? engines.filter((e) => e.name === values.engine) : engines;
  if (chosen.length === 0) throw new Error(`--engine is pglite or postgres, got ${values.engine}\n\n${usage}`);
  let failed = false;
  for (const engine of chosen) {
    print(`[${engine.name}] seed ${seed}${only !== undefined ? `, case ${only} only` : `, ${budget} cases`}`);
    const server = await startFuzzServer(engine);
    try {
      const report = await fuzz({
        base: server.url,
        db: server.db,
        credentials: server.credentials,
        bodyLimitBytes: server.bodyLimitBytes,
        seed,
        budget,
        ...(only !== undefined ? { only } : {}),
        caseDeadlineMs: number('deadline', values.deadline, 5000),
        livenessLimitMs: number('liveness', values.liveness, 100),
        onCase: (index, failures) => {
          if ((index + 1) % 500 === 0) print(`[${engine.name}] ${index + 1} cases, ${failures} failures so far`);
        },
      });
      if (report.replayed) print(`case ${only}, as sent:\n${JSON.stringify(report.replayed, null, 1)}`);
      print(formatReport(report, replayCommand(engine)));
      failed ||= report.failures.length > 0;
    } finally {
      await server.close();
    }
  }
  return failed ? 1 : 0;
}

/** The command that runs one case again, for a failure's report line. */
export function replayCommand(engine: TestEngine): (seed: number, index: number) => string {
  return (seed, index) => `npm run fuzz -- --engine ${engine.name} --seed ${seed} --case ${index}`;
}
