import { parseArgs } from 'node:util';

/** Flags of `npm run bench -- <names> [--duration S] [--rate R] [--seed N]`, for the benches that take them (the soak). */
export interface BenchFlags {
  duration?: number;
  rate?: number;
  seed?: number;
}

/** The bench names and flags of a command line; a flag given a value that is not a positive number is refused. */
export function parseBenchArgs(args: string[]): { names: string[]; flags: BenchFlags } {
  const { values, positionals } = parseArgs({
    args,
    options: { duration: { type: 'string' }, rate: { type: 'string' }, seed: { type: 'string' } },
    allowPositionals: true,
  });
  const number = (flag: string, value: string | undefined) => {
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0)
      throw new Error(`--${flag} takes a positive number, not ${JSON.stringify(value)}`);
    return n;
  };
  return {
    names: positionals,
    flags: {
      duration: number('duration', values.duration),
      rate: number('rate', values.rate),
      seed: number('seed', values.seed),
    },
  };
}
