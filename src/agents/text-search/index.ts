/**
 * What the agents' in-memory text searches share (the sales agent's products, the signals
 * agent's signals): the bounded query a text becomes, and the match options that keep a
 * search's work bounded whatever the text; and the stemmed words the lexical matchers compare
 * (content standards' rules, the brand agent's roster and holders).
 */
export { stemOf, stemsOf, wordsOf } from './stems.ts';
export {
  fuzzyOptions,
  prefixOption,
  queryLimits,
  queryTerms,
  queryText,
  termCounts,
  type QueryLimits,
  type QueryTerms,
} from './query-terms.ts';
