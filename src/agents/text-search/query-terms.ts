import { textBounds } from '../runtime/text-bounds.ts';

/**
 * What one search may look for, whatever text it is given: a text search's work grows with the
 * number of terms, the prefix matches of each and, when typos are forgiven, the square of each
 * term's length (MiniSearch's edit-distance matrix is that size: a 100,000-character word asked
 * for 10 GB). Each bound is a line of docs/decisions.md.
 */
export interface QueryLimits {
  /** Characters read from the text; the rest is not searched (the prose bound of the tasks' inputs). */
  readonly maxScan: number;
  /** Distinct terms searched, in the text's order; later new words are not looked for. */
  readonly maxTerms: number;
  /** Longer words are not searched at all: no catalog word is that long. */
  readonly maxTermLength: number;
  /** Shortest term also matched as the start of longer words ("stream" finds "streaming"). */
  readonly minPrefixLength: number;
  /** Shortest term matched forgiving typos. */
  readonly minFuzzyLength: number;
  /** Edits forgiven: a fifth of the term's length, at most this many. */
  readonly maxEdits: number;
}

export const queryLimits: QueryLimits = {
  maxScan: textBounds.prose,
  maxTerms: 64,
  maxTermLength: 32,
  minPrefixLength: 3,
  minFuzzyLength: 4,
  maxEdits: 2,
};

/** The words of a text a search looks for. */
export interface QueryTerms {
  /** The words as written, one for each distinct term, in the text's order: what the engine is asked. */
  readonly words: readonly string[];
  /** Their terms, as the index's `processTerm` makes them (the same order). */
  readonly terms: readonly string[];
  /** How often each term occurs in the text read (the same order): a repeated word weighs more, as it did when each occurrence was searched. */
  readonly counts: readonly number[];
}

// MiniSearch's own tokenizer splits on these (its SPACE_OR_PUNCTUATION); a word is what lies between.
const word = /[^\n\r\p{Z}\p{P}]+/gu;

/**
 * The bounded query of a text: its words, read from at most `maxScan` characters, each processed
 * as the index processes words (`process` answers null for a stop word), a repeated term once
 * with its count, words over `maxTermLength` left out, at most `maxTerms` terms. Pure, and linear
 * in the characters read.
 */
export function queryTerms(
  text: string,
  process: (word: string) => string | null,
  limits: QueryLimits = queryLimits,
): QueryTerms {
  const words: string[] = [];
  const terms: string[] = [];
  const counts: number[] = [];
  const at = new Map<string, number>();
  for (const [written] of text.slice(0, limits.maxScan).matchAll(word)) {
    if (written.length > limits.maxTermLength) continue;
    const term = process(written);
    if (term === null || term === '') continue;
    const known = at.get(term);
    if (known !== undefined) counts[known]! += 1;
    else if (terms.length < limits.maxTerms) {
      at.set(term, terms.length);
      words.push(written);
      terms.push(term);
      counts.push(1);
    }
  }
  return { words, terms, counts };
}

/** Each term's count, for MiniSearch's `boostTerm`: the query weighs a term as often as the text says it. */
export function termCounts(query: QueryTerms): Map<string, number> {
  return new Map(query.terms.map((term, i) => [term, query.counts[i]!]));
}

/** The text MiniSearch is asked for: the query's words, which its tokenizer splits back into the same words. */
export const queryText = (query: QueryTerms): string => query.words.join(' ');

/** Prefix matching for terms long enough that their prefix matches are few. */
export const prefixOption =
  (limits: QueryLimits = queryLimits) =>
  (term: string): boolean =>
    term.length >= limits.minPrefixLength;

/** Typo-forgiving matching: a fifth of a term's length in edits, at most `maxEdits`, for terms long enough to have typos. */
export function fuzzyOptions(limits: QueryLimits = queryLimits): {
  fuzzy: (term: string) => number | false;
  maxFuzzy: number;
} {
  return {
    fuzzy: (term) => (term.length >= limits.minFuzzyLength && term.length <= limits.maxTermLength ? 0.2 : false),
    maxFuzzy: limits.maxEdits,
  };
}
