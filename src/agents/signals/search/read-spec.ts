import {
  ageWords,
  b2bWords,
  contextualWords,
  countryCodes,
  countryNames,
  genderWords,
  incomeWords,
  inMarketPhrases,
  lifeEventPhrases,
  placeAliases,
  visitorWords,
} from './vocabulary/index.ts';

/** A closed range; `Infinity` for an open top. Ages in years, incomes in thousands. */
export type Range = readonly [number, number];

/** What a signal_spec says beyond its words: the structure a planner writes in passing. */
export interface SpecReading {
  /** The spec with its ages and incomes taken out (numbers match nothing useful as text). */
  readonly text: string;
  readonly ages?: Range;
  readonly gender?: 'female' | 'male';
  readonly income?: Range;
  /** Company size in employees. */
  readonly employees?: Range;
  /** ISO 3166-1 alpha-2 codes named. */
  readonly countries: readonly string[];
  /** Places of the catalog named (as its taxonomy writes them). */
  readonly places: readonly string[];
  readonly inMarket: boolean;
  readonly lifeEvent: boolean;
  readonly visitors: boolean;
  readonly contextual: boolean;
  readonly b2b: boolean;
}

const ageRange =
  /\b(?:aged?\s+|ages\s+)?(1[3-9]|[2-9]\d)\s*(?:-|–|to|through)\s*(1[3-9]|[2-9]\d)\b(?!\s*(?:k\b|,\d|%|employees|\$|€|£))/gi;
const ageOpen =
  /\b(?:(?:over|above|older than)\s+(1[8-9]|[2-9]\d)(?!\s*(?:k\b|,\d|%))|(1[8-9]|[2-9]\d)\s*(?:\+|\s+and\s+(?:over|older|up))(?!\s*employees))/gi;
const ageUnder = /\b(?:under|younger than|below)\s+([2-9]\d)\b(?!\s*(?:k\b|,\d|%))/gi;
const decade = /\b(?:in\s+their\s+)?([2-8])0s\b/gi;
// A number starts where no digit or thousands comma comes before it: otherwise a long run of digits
// would be tried from each of its digits, each try reading to its end (quadratic in the run).
const money = String.raw`[$€£]?\s?(?<![\d,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(k|K|,000)?`;
const incomeRange = new RegExp(String.raw`${money}\s*(?:-|–|to)\s*${money}`, 'g');
const incomeAtLeast = new RegExp(
  String.raw`(?:(?:over|above|at least|more than)\s+${money}|${money}\s*(?:\+|or more|and up|and above))`,
  'g',
);
const incomeBelow = new RegExp(String.raw`(?:under|below|less than)\s+${money}`, 'g');
const employeeWords = String.raw`\s*(?:employees|staff|people|workers|headcount|persons)`;
const count = String.raw`(?<![\d,])(\d{1,3}(?:,\d{3})+|\d+)`;
const employeeRange = new RegExp(String.raw`${count}\s*(?:-|–|to)\s*${count}${employeeWords}`, 'gi');
const employeesAtLeast = new RegExp(
  String.raw`(?:(?:over|more than|at least)\s+${count}${employeeWords}|${count}\s*(?:\+|or more)${employeeWords})`,
  'gi',
);
const employeesBelow = new RegExp(String.raw`(?:under|fewer than|less than)\s+${count}${employeeWords}`, 'gi');
const incomeContext = /\b(?:income|hhi|earn|earning|earners|making|salary|salaries|household)\b|[$€£]/i;

/**
 * Reads the structure of a natural-language spec: age ranges ("25-34", "aged 35 to 44", "55+",
 * "in their 30s", "millennials"), gender, household income ("HHI $150k+", "affluent"), countries
 * and cities by name, and what kind of signal it asks for (in-market, life event, visitors,
 * contextual, B2B). Pure; what it cannot read stays in `text` for the full-text search.
 */
export function readSpec(spec: string): SpecReading {
  let text = ` ${spec.replaceAll(/\s+/g, ' ')} `;
  const lower = () => text.toLowerCase();
  const take = (re: RegExp, fn: (m: RegExpExecArray) => boolean) => {
    text = text.replace(re, (...args) => {
      const match = Object.assign([...args.slice(0, -2)] as unknown as RegExpExecArray, {
        index: args.at(-2) as number,
      });
      return fn(match) ? ' ' : args[0];
    });
  };

  const employees: Range[] = [];
  const headcount = (n: string) => Number(n.replaceAll(',', ''));
  take(employeeRange, (m) => (employees.push([headcount(m[1]!), headcount(m[2]!)]), true));
  take(employeesAtLeast, (m) => (employees.push([headcount(m[1] ?? m[2]!), Infinity]), true));
  take(employeesBelow, (m) => (employees.push([1, headcount(m[1]!) - 1]), true));
  const incomes: Range[] = [];
  if (incomeContext.test(spec)) {
    take(incomeRange, (m) => push(incomes, [thousands(m[1]!, m[2]), thousands(m[3]!, m[4])], m[0]));
    take(incomeAtLeast, (m) => push(incomes, [thousands(m[1] ?? m[3]!, m[2] ?? m[4]), Infinity], m[0]));
    take(incomeBelow, (m) => push(incomes, [0, thousands(m[1]!, m[2])], m[0]));
  }
  const ages: Range[] = [];
  take(ageRange, (m) => Number(m[1]) <= Number(m[2]) && (ages.push([Number(m[1]), Number(m[2])]), true));
  take(ageOpen, (m) => (ages.push([Number(m[1] ?? m[2]), 99]), true));
  take(ageUnder, (m) => (ages.push([18, Number(m[1]) - 1]), true));
  take(decade, (m) => (ages.push([Number(m[1]) * 10, Number(m[1]) * 10 + 9]), true));
  // Longest phrases first, each crossed out once read ("late twenties" is not also "twenties");
  // the text keeps them, as catalogs use such words too ("millennials", "affluent").
  let unread = lower();
  const read = <T>(table: Readonly<Record<string, T>>, found: T[]) => {
    for (const [phrase, value] of longestFirst(table))
      unread = unread.replace(phraseRe(phrase), () => (found.push(value), ' '));
  };
  read(ageWords, ages);
  read(incomeWords, incomes);

  const words = lower();
  const genders = new Set(
    Object.entries(genderWords)
      .filter(([word]) => hasPhrase(words, word))
      .map(([, gender]) => gender),
  );
  const countries = new Set<string>();
  for (const [name, code] of Object.entries(countryNames)) if (hasPhrase(words, name)) countries.add(code);
  for (const [written, code] of Object.entries(countryCodes))
    if (new RegExp(String.raw`(?<![\w.])${written}(?![\w])`).test(text)) countries.add(code);

  return {
    text: text.trim(),
    ...(ages.length > 0 ? { ages: span(ages) } : {}),
    ...(genders.size === 1 ? { gender: [...genders][0]! } : {}),
    ...(incomes.length > 0 ? { income: span(incomes) } : {}),
    ...(employees.length > 0 ? { employees: span(employees) } : {}),
    countries: [...countries],
    places: [],
    inMarket: inMarketPhrases.some((p) => hasPhrase(words, p)),
    lifeEvent: lifeEventPhrases.some((p) => hasPhrase(words, p)),
    visitors: visitorWords.some((p) => hasPhrase(words, p)),
    contextual: contextualWords.some((p) => hasPhrase(words, p)),
    b2b: employees.length > 0 || b2bWords.some((p) => hasPhrase(words, p)),
  };
}

/** The catalog's places a spec names, by name or alias; `places` are the catalog's own (lower case). */
export function placesNamed(spec: string, places: ReadonlySet<string>): string[] {
  const words = ` ${spec.toLowerCase().replaceAll(/\s+/g, ' ')} `;
  const found = new Set<string>();
  for (const place of places) if (hasPhrase(words, place)) found.add(place);
  for (const [alias, named] of Object.entries(placeAliases)) {
    // Two-letter aliases (LA, SF, DC) only as capitals: "la" and "dc" are common lower-case text.
    const said =
      alias.replaceAll('.', '').length <= 2
        ? new RegExp(String.raw`(?<![\w])${escape(alias.toUpperCase())}(?![\w])`).test(spec)
        : hasPhrase(words, alias);
    if (said) for (const place of typeof named === 'string' ? [named] : named) if (places.has(place)) found.add(place);
  }
  return [...found];
}

// Compiled once per phrase: the vocabulary's phrases are asked about on every search.
const compiled = new Map<string, RegExp>();

/** The phrase as a whole word or words (global: reset `lastIndex` before `test`). */
function phraseRe(phrase: string): RegExp {
  let re = compiled.get(phrase);
  if (!re)
    compiled.set(phrase, (re = new RegExp(String.raw`(?<![\p{L}\p{N}])${escape(phrase)}(?![\p{L}\p{N}])`, 'giu')));
  re.lastIndex = 0;
  return re;
}

function hasPhrase(words: string, phrase: string): boolean {
  return phraseRe(phrase).test(words);
}

const longestFirst = <T>(table: Readonly<Record<string, T>>) =>
  Object.entries(table).sort((a, b) => b[0].length - a[0].length);

const escape = (text: string) => text.replaceAll(/[.*+?^${}()|[\]\\]/g, String.raw`\$&`);

/** An amount in thousands: "150k", "150,000", "$150" (a bare small number with a symbol means thousands only when followed by k). */
function thousands(amount: string, suffix: string | undefined): number {
  const value = Number(amount.replaceAll(',', ''));
  if (suffix && suffix.toLowerCase() === 'k') return value;
  if (suffix === ',000') return value;
  return value >= 1000 ? value / 1000 : value;
}

/** Records an income read from `written` unless it was a plain small number with no sign of money. */
function push(incomes: Range[], range: Range, written: string): boolean {
  if (!/[$€£k]|,000|\d{4,}/i.test(written)) return false;
  incomes.push(range);
  return true;
}

/** The smallest range covering all of them. */
function span(ranges: readonly Range[]): Range {
  return [Math.min(...ranges.map((r) => r[0])), Math.max(...ranges.map((r) => r[1]))];
}
