import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import {
  fuzzyOptions,
  prefixOption,
  queryLimits,
  queryTerms,
  queryText,
  termCounts,
  type QueryLimits,
  type QueryTerms,
} from '../../text-search/index.ts';
import type { CatalogSignal } from '../catalog/index.ts';
import { placesNamed, readSpec, type Range, type SpecReading } from './read-spec.ts';
import { BestOf } from './best-of.ts';
import { facetsOf, overlap, type SignalFacets } from './signal-facets.ts';
import { stopWords, synonyms } from './vocabulary/index.ts';

/** A signal a spec matched, and how well (higher is better; only the order means anything). */
export interface RankedSignal {
  readonly signal: CatalogSignal;
  readonly score: number;
}

interface Document {
  id: number;
  name: string;
  keywords: string;
  taxonomy: string;
  description: string;
  provider: string;
}

// How much each kind of evidence counts, beside a full-text score scaled to 0–1.
const weight = {
  ageMatch: 0.9,
  genderMatch: 0.4,
  incomeMatch: 0.9,
  employeesMatch: 0.9,
  notInCountry: -0.7,
  residentsOfCountry: 0.6,
  placeAsAsked: 1,
  placeOtherwise: 0.2,
  categoryAsked: 0.35,
  contextualAsked: 0.5,
  expansion: 0.5,
};

// Prefix matching from five letters: shorter stems ("mom", "car") would widen to unrelated words.
const limits: QueryLimits = { ...queryLimits, minPrefixLength: 5 };

const processTerm = (term: string): string | null => {
  const word = term.toLowerCase();
  return word.length === 0 || stopWords.has(word) ? null : stemmer(word);
};

/**
 * Ranks a catalog's signals against a natural-language spec, in memory: full-text search
 * (MiniSearch's BM25 over names, keywords, taxonomy, descriptions and providers, words stemmed,
 * a brief's informal words widened through the synonym table), plus what `readSpec` reads of
 * its structure (ages, gender, income, countries, cities, and whether it asks for in-market,
 * life-event, visitor, contextual or B2B signals) matched against each signal's facets.
 * Built once per catalog.
 */
export class SignalSearch {
  private readonly index: MiniSearch<Document>;
  private readonly signals: readonly CatalogSignal[];
  private readonly facets: readonly SignalFacets[];
  /** Signals with a facet a spec's structure can select on its own (ages, incomes, places, countries). */
  private readonly faceted: readonly number[];
  /** The faceted signals by what of a spec's structure can score them above nothing (see `scorable`). */
  private readonly facetedBy: FacetedBy;
  private readonly places: ReadonlySet<string>;
  /** The countries a city is in, from its metro signal: a spec naming the city means that country. */
  private readonly placeCountries = new Map<string, readonly string[]>();

  constructor(signals: readonly CatalogSignal[]) {
    this.signals = signals;
    this.facets = signals.map(facetsOf);
    this.faceted = this.facets.flatMap((f, i) =>
      f.ages || f.income || f.employees || f.place || f.residentsOf ? [i] : [],
    );
    this.facetedBy = facetedBy(signals, this.facets, this.faceted);
    this.places = new Set(this.facets.flatMap((f) => (f.place ? [f.place] : [])));
    for (const [i, f] of this.facets.entries())
      if (f.place && !f.visitors) this.placeCountries.set(f.place, signals[i]!.countries);
    this.index = new MiniSearch<Document>({
      fields: ['name', 'keywords', 'taxonomy', 'description', 'provider'],
      processTerm,
      searchOptions: {
        boost: { name: 3, keywords: 2, taxonomy: 1.5, description: 0.5, provider: 1 },
        prefix: prefixOption(limits),
        combineWith: 'OR',
      },
    });
    this.index.addAll(
      signals.map((s, id) => ({
        id,
        name: s.name,
        keywords: s.keywords.join(' '),
        taxonomy: s.taxonomy.join(' '),
        description: s.description,
        provider: s.data_provider,
      })),
    );
  }

  /**
   * The signals `spec` matches that `include` admits, best first; equal scores keep catalog order.
   * Only the spec's first `queryLimits.maxScan` characters are read, and its words are searched
   * through `query`, so the work is bounded whatever its length.
   */
  rank(whole: string, include: (signal: CatalogSignal) => boolean = () => true): RankedSignal[] {
    return this.search(whole, include).ranked;
  }

  /**
   * As `rank`, but only the best `keep` are ranked (a page and those before it): `total` says how
   * many `include` admitted in all. `matched` says whether the spec matched any signal of the
   * catalog at all, admitted or not (a spec of stop words such as "audience" matches none).
   */
  search(
    whole: string,
    include: (signal: CatalogSignal) => boolean = () => true,
    keep = Infinity,
  ): { ranked: RankedSignal[]; total: number; matched: boolean } {
    const spec = whole.slice(0, limits.maxScan);
    const read = readSpec(spec);
    const places = placesNamed(spec, this.places);
    const countries = [...new Set([...read.countries, ...places.flatMap((p) => this.placeCountries.get(p) ?? [])])];
    const reading: SpecReading = { ...read, places, countries };
    const text = this.textScores(reading.text, countries);
    const structured = hasStructure(reading);
    const best = new BestOf(Math.min(keep, this.signals.length));
    const consider = (id: number, textScore: number) => {
      const signal = this.signals[id]!;
      if (!include(signal)) return;
      const structure = this.structureScore(signal, this.facets[id]!, reading);
      if (structure === undefined) return;
      const score = textScore + structure;
      if (score > 0) best.offer(id, score);
    };
    for (const [id, score] of text) consider(id, score);
    // A spec with structure (an age band, a place) also weighs the signals its words missed: those
    // whose facets can score above nothing on it, each once.
    if (structured) {
      const weighed = new Set<number>();
      for (const ids of this.scorable(reading))
        for (const id of ids) {
          if (text.has(id) || weighed.has(id)) continue;
          weighed.add(id);
          consider(id, 0);
        }
    }
    return {
      ranked: best.sorted().map(({ id, score }) => ({ signal: this.signals[id]!, score })),
      total: best.seen,
      matched: text.size > 0 || (structured && this.faceted.length > 0),
    };
  }

  /**
   * The lists of faceted signals that may score above nothing on the spec's structure alone: a
   * signal in none of them scores nothing on each of its facets (a band the spec does not ask for,
   * a place it does not name) or less (outside the countries asked), and is left out either way.
   */
  private *scorable(reading: SpecReading): Iterable<readonly number[]> {
    const by = this.facetedBy;
    if (reading.ages) yield by.ages;
    if (reading.gender) yield by.gender;
    if (reading.income) yield by.income;
    if (reading.employees) yield by.employees;
    for (const place of reading.places) yield by.place.get(place) ?? [];
    for (const country of reading.countries) yield by.residentsOf.get(country) ?? [];
    if (reading.inMarket) yield by.category.get('in_market') ?? [];
    if (reading.lifeEvent) yield by.category.get('life_events') ?? [];
    if (reading.b2b) yield by.category.get('b2b') ?? [];
    if (reading.contextual) yield by.category.get('contextual') ?? [];
  }

  /** The terms a spec's text is searched for (besides its synonyms): its distinct words, as many and as long as `queryLimits` allow. */
  query(text: string): QueryTerms {
    return queryTerms(text, processTerm, limits);
  }

  /** BM25 scores of the spec's words and their synonyms (at a lower weight), scaled so the best is 1. */
  private textScores(text: string, countries: readonly string[]): Map<number, number> {
    const lower = ` ${text.toLowerCase().replaceAll(/[^\p{L}\p{N}'+-]+/gu, ' ')} `;
    // Outside North America, football is soccer.
    const soccer = countries.length > 0 && countries.every((c) => c !== 'US' && c !== 'CA');
    const expansion = Object.entries(synonyms)
      .filter(([phrase]) => lower.includes(` ${phrase} `))
      .map(([phrase, words]) => (soccer && phrase === 'football' ? 'soccer' : words))
      .join(' ');
    const own = this.query(text);
    const widened = queryTerms(expansion, processTerm, limits);
    // As when every occurrence was a query term: the spec's own words count once per occurrence,
    // a synonym once per occurrence too when the spec says it, else at half weight.
    const boosts = termCounts(own);
    const extra: string[] = [];
    for (const [i, term] of widened.terms.entries()) {
      const count = widened.counts[i]!;
      const ownCount = boosts.get(term);
      if (ownCount !== undefined) boosts.set(term, ownCount + count);
      else {
        boosts.set(term, count * weight.expansion);
        extra.push(widened.words[i]!);
      }
    }
    const query = [...own.words, ...extra].join(' ');
    let hits = query === '' ? [] : this.index.search(query, { boostTerm: (term) => boosts.get(term) ?? 1 });
    if (hits.length === 0 && own.words.length > 0) {
      const ownCounts = termCounts(own);
      hits = this.index.search(queryText(own), {
        ...fuzzyOptions(limits),
        boostTerm: (term) => ownCounts.get(term) ?? 1,
      });
    }
    const best = hits[0]?.score ?? 1;
    return new Map(hits.map((hit) => [hit.id as number, hit.score / best]));
  }

  /** What the spec's structure adds to a signal's text score; undefined when the signal contradicts it (men for "women", 18-24 for "35-44"). */
  private structureScore(signal: CatalogSignal, facets: SignalFacets, reading: SpecReading): number | undefined {
    // Called for every candidate of a search (thousands): no arrays made per call.
    const ages = bandScore(reading.ages, facets.ages, weight.ageMatch);
    const income = bandScore(reading.income, facets.income, weight.incomeMatch);
    const employees = bandScore(reading.employees, facets.employees, weight.employeesMatch);
    if (ages === undefined || income === undefined || employees === undefined) return undefined;
    let score = ages + income + employees;
    if (reading.gender && facets.gender) {
      if (facets.gender !== reading.gender) return undefined;
      score += weight.genderMatch;
    }
    if (reading.countries.length > 0) {
      if (!signal.countries.some((c) => reading.countries.includes(c))) score += weight.notInCountry;
      if (facets.residentsOf && reading.countries.includes(facets.residentsOf)) score += weight.residentsOfCountry;
    }
    if (facets.place && reading.places.includes(facets.place))
      score += facets.visitors === reading.visitors ? weight.placeAsAsked : weight.placeOtherwise;
    if (reading.inMarket && signal.category === 'in_market') score += weight.categoryAsked;
    if (reading.lifeEvent && signal.category === 'life_events') score += weight.categoryAsked;
    if (reading.b2b && signal.category === 'b2b') score += weight.categoryAsked;
    if (reading.contextual && signal.category === 'contextual') score += weight.contextualAsked;
    return score;
  }
}

interface FacetedBy {
  ages: number[];
  gender: number[];
  income: number[];
  employees: number[];
  place: Map<string, number[]>;
  residentsOf: Map<string, number[]>;
  category: Map<string, number[]>;
}

function facetedBy(signals: readonly CatalogSignal[], facets: readonly SignalFacets[], faceted: readonly number[]) {
  const by: FacetedBy = {
    ages: [],
    gender: [],
    income: [],
    employees: [],
    place: new Map(),
    residentsOf: new Map(),
    category: new Map(),
  };
  const add = (map: Map<string, number[]>, key: string, id: number) => {
    const ids = map.get(key);
    if (ids) ids.push(id);
    else map.set(key, [id]);
  };
  for (const id of faceted) {
    const f = facets[id]!;
    if (f.ages) by.ages.push(id);
    if (f.gender) by.gender.push(id);
    if (f.income) by.income.push(id);
    if (f.employees) by.employees.push(id);
    if (f.place) add(by.place, f.place, id);
    if (f.residentsOf) add(by.residentsOf, f.residentsOf, id);
    const category = signals[id]!.category;
    if (category) add(by.category, category, id);
  }
  return by;
}

/** What a band the spec asks for (ages, income, employees) adds: nothing when either side has none, undefined when they do not overlap. */
function bandScore(wanted: Range | undefined, band: Range | undefined, match: number): number | undefined {
  if (!wanted || !band) return 0;
  const share = overlap(band, wanted);
  return share === 0 ? undefined : match * share;
}

const hasStructure = (r: SpecReading) =>
  r.ages !== undefined ||
  r.income !== undefined ||
  r.employees !== undefined ||
  r.places.length > 0 ||
  r.countries.length > 0;
