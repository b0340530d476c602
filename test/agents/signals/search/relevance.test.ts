import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { demoSignalsPath, loadSignalsCatalog } from '../../../../src/agents/signals/catalog/index.ts';
import { SignalSearch } from '../../../../src/agents/signals/search/signal-search.ts';
import { evaluate, loadRelevanceSet } from '../../../support/relevance.ts';

/**
 * The ranking as planners judge it: the hand-graded briefs of test/agents/signals/relevance
 * against the demo catalog's marketplace signals. The floors are what the ranker achieved when the
 * signals agent landed; a change that ranks worse fails here and shows its worst briefs.
 */
const floors = { mrr: 0.986, ndcg: 0.887 };

describe('get_signals ranking against the relevance set', () => {
  it(`keeps MRR@10 ≥ ${floors.mrr} and nDCG@10 ≥ ${floors.ndcg}`, async () => {
    const catalog = await loadSignalsCatalog(demoSignalsPath);
    const search = new SignalSearch(catalog.signals.filter((s) => s.signal_type === 'marketplace'));
    const set = loadRelevanceSet();
    const result = evaluate(set, (brief) => search.rank(brief).map((r) => r.signal.signal_agent_segment_id));
    const worst = [...result.perBrief]
      .sort((a, b) => a.ndcg - b.ndcg)
      .slice(0, 5)
      .map((b) => `${b.ndcg.toFixed(2)} ${b.brief}: ${b.top.slice(0, 3).join(', ')}`);
    assert.ok(
      result.mrr >= floors.mrr,
      `MRR@10 ${result.mrr.toFixed(3)} < ${floors.mrr}; worst briefs:\n${worst.join('\n')}`,
    );
    assert.ok(
      result.ndcg >= floors.ndcg,
      `nDCG@10 ${result.ndcg.toFixed(3)} < ${floors.ndcg}; worst briefs:\n${worst.join('\n')}`,
    );
  });
});
