import type { SignalsCatalog } from '../../src/agents/signals/catalog/index.ts';
import { SignalSearch } from '../../src/agents/signals/search/signal-search.ts';
import { evaluate, loadRelevanceSet, type Evaluation } from '../../test/support/relevance.ts';

export interface SignalsRelevance extends Evaluation {
  readonly briefs: number;
  readonly k: number;
}

/**
 * How well the get_signals ranker orders `catalog` for the repository's hand-graded briefs, as the
 * relevance test measures it: marketplace signals only, since the judgements are an anonymous
 * caller's, who sees no custom or owned ones. Meant for the demo catalog the briefs were graded on.
 */
export function signalsRelevance(catalog: SignalsCatalog, k = 10): SignalsRelevance {
  const search = new SignalSearch(catalog.signals.filter((s) => s.signal_type === 'marketplace'));
  const set = loadRelevanceSet();
  return {
    ...evaluate(set, (brief) => search.rank(brief).map((r) => r.signal.signal_agent_segment_id), k),
    briefs: set.length,
    k,
  };
}

/** `signals relevance: MRR@10 0.986, nDCG@10 0.887 over 115 briefs`. */
export function relevanceLine({ mrr, ndcg, briefs, k }: SignalsRelevance): string {
  return `signals relevance: MRR@${k} ${mrr.toFixed(3)}, nDCG@${k} ${ndcg.toFixed(3)} over ${briefs} briefs`;
}
