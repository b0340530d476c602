/** One thing wrong with a catalog, located as precisely as it can be. */
export interface CatalogProblem {
  readonly source: string;
  /** 1-based; absent when the problem is the file as a whole (missing, unreadable). */
  readonly line?: number;
  readonly column?: number;
  /** Where in the document, as `products[3].pricing_options[0].floor_price`; absent for the document. */
  readonly path?: string;
  readonly message: string;
}

/** A catalog that cannot be served; the message lists every problem found, one per line. */
export class CatalogError extends Error {
  override name = 'CatalogError';
  readonly problems: readonly CatalogProblem[];

  constructor(problems: readonly CatalogProblem[], omitted = 0) {
    const lines = problems.map(formatProblem);
    if (omitted > 0) lines.push(`(${omitted} more not shown)`);
    super(lines.join('\n'));
    this.problems = problems;
  }
}

export function formatProblem(problem: CatalogProblem): string {
  const where =
    problem.line === undefined ? problem.source : `${problem.source}:${problem.line}:${problem.column ?? 1}`;
  return problem.path === undefined ? `${where}: ${problem.message}` : `${where}: ${problem.path}: ${problem.message}`;
}
