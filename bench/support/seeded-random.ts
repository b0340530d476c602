/**
 * A small linear congruential generator: the same seed gives the same sequence on every run and
 * machine, so a benchmark's rotations and random mixes are reproducible. Not for anything secret.
 */
export function seededRandom(seed: number): () => number {
  let state = seed & 0x7fffffff;
  return () => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
}
