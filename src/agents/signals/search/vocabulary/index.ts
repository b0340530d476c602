/**
 * The words planners use that catalogs do not: what a brief's word means in the catalog's terms.
 * Kept as data so the next synonym is one line, not code.
 */

export { ageWords, genderWords, incomeWords } from './demographics.ts';
export { countryCodes, countryNames, placeAliases } from './places.ts';
export { b2bWords, contextualWords, inMarketPhrases, lifeEventPhrases, visitorWords } from './signal-kinds.ts';
export { stopWords } from './stop-words.ts';
export { synonyms } from './synonyms.ts';
