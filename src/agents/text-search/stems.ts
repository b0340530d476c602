import { stemmer } from 'stemmer';

/** Words of a text, lower-cased, letters and digits only (apostrophes dropped). */
export const wordsOf = (text: string): string[] =>
  text
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');

// Stems of words seen lately: texts repeat their words, and a request body holds at most about 170,000.
const stems = new Map<string, string>();
const keptStems = 50_000;

/** A word's Porter stem ("violence" and "violent" share one). */
export function stemOf(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    if (stems.size >= keptStems) stems.clear();
    stems.set(word, (stem = stemmer(word)));
  }
  return stem;
}

/** The stems of a text's words, each once. */
export const stemsOf = (text: string): Set<string> => new Set(wordsOf(text).map(stemOf));
