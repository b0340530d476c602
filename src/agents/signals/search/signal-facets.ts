import type { CatalogSignal } from '../catalog/index.ts';
import type { Range } from './read-spec.ts';

/** What a signal is about, in the terms a spec's structure is read in (see readSpec). */
export interface SignalFacets {
  readonly ages?: Range;
  readonly gender?: 'female' | 'male';
  /** Household income in thousands. */
  readonly income?: Range;
  /** A company-size signal's employees. */
  readonly employees?: Range;
  /** A city (metro or visitors) the signal is about, as its taxonomy names it. */
  readonly place?: string;
  readonly visitors: boolean;
  /** A country-wide geography signal's country. */
  readonly residentsOf?: string;
}

/**
 * Reads a catalog signal's facets from its taxonomy and name, the way the catalog writes them:
 * `[demographics, age and gender, 25-34]` with a name starting "Women"/"Men",
 * `[demographics, household income, "$50,000-$75,000"]`, `[geography, city | visitors, <place>]`,
 * `[geography, country, <name>]`.
 */
export function facetsOf(signal: CatalogSignal): SignalFacets {
  const [family, kind, value] = signal.taxonomy.map((t) => t.toLowerCase());
  if (family === 'demographics' && kind === 'age and gender' && value) {
    const gender = /^women\b/i.test(signal.name) ? 'female' : /^men\b/i.test(signal.name) ? 'male' : undefined;
    return { ages: ageBand(value), ...(gender ? { gender } : {}), visitors: false };
  }
  if (family === 'demographics' && kind === 'household income' && value)
    return { income: incomeBand(value), visitors: false };
  if (family === 'b2b' && kind === 'company size' && value) return { employees: employeeBand(value), visitors: false };
  if (family === 'geography' && (kind === 'city' || kind === 'visitors') && value)
    return { place: value, visitors: kind === 'visitors' };
  if (family === 'geography' && kind === 'country' && signal.countries.length === 1)
    return { residentsOf: signal.countries[0]!, visitors: false };
  return { visitors: false };
}

function ageBand(text: string): Range | undefined {
  const closed = /^(\d+)-(\d+)$/.exec(text);
  if (closed) return [Number(closed[1]), Number(closed[2])];
  const open = /^(\d+)\+$/.exec(text);
  return open ? [Number(open[1]), 99] : undefined;
}

/** "201-1,000 employees", "5,000+ employees". */
function employeeBand(text: string): Range | undefined {
  const numbers = [...text.matchAll(/(\d{1,3}(?:,\d{3})*)/g)].map((m) => Number(m[1]!.replaceAll(',', '')));
  if (numbers.length === 2) return [numbers[0]!, numbers[1]!];
  return numbers.length === 1 && text.includes('+') ? [numbers[0]!, Infinity] : undefined;
}

/** "under $50,000", "$50,000-$75,000", "$250,000 or more" (any currency sign) in thousands. */
function incomeBand(text: string): Range | undefined {
  const amounts = [...text.matchAll(/(\d{1,3}(?:,\d{3})+)/g)].map((m) => Number(m[1]!.replaceAll(',', '')) / 1000);
  if (amounts.length === 2) return [amounts[0]!, amounts[1]!];
  if (amounts.length !== 1) return undefined;
  if (/^under\b/.test(text)) return [0, amounts[0]!];
  return /or more|\+/.test(text) ? [amounts[0]!, Infinity] : undefined;
}

/** How much of `band` lies within `wanted`, 0–1 (an open top counts as 100 wide). */
export function overlap(band: Range, wanted: Range): number {
  const width = (r: Range) => Math.max(1, (r[1] === Infinity ? r[0] + 100 : r[1]) - r[0]);
  const from = Math.max(band[0], wanted[0]);
  const to = Math.min(band[1], wanted[1]);
  // Touching at an edge is no overlap: "$150k+" is not the $100,000-$150,000 band.
  if (to <= from) return 0;
  return Math.min(1, width([from, to]) / width(band));
}
