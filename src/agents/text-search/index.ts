/**
 * What the agents' in-memory text searches share (the sales agent's products, the signals
 * agent's signals): the bounded query a text becomes, and the match options that keep a
 * search's work bounded whatever the text.
 */
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
