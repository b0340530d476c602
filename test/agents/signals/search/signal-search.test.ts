import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { demoSignalsPath, loadSignalsCatalog, type CatalogSignal } from '../../../../src/agents/signals/catalog/index.ts';
import { SignalSearch } from '../../../../src/agents/signals/search/signal-search.ts';

describe('SignalSearch over the demo catalog', () => {
  let search: SignalSearch;
  let signals: readonly CatalogSignal[];
  const top = (spec: string, n = 3, include?: (s: CatalogSignal) => boolean) => search.rank(spec, include).slice(0, n).map((r) => r.signal.name);

  before(async () => {
    signals = (await loadSignalsCatalog(demoSignalsPath)).signals;
    search = new SignalSearch(signals);
  });

  it('puts the demographic a spec states first, and never the opposite gender or a disjoint age', () => {
    const ranked = search.rank('women 25-34');
    assert.deepEqual(ranked.slice(0, 2).map((r) => r.signal.name), ['Women 25-34', 'Women 25-34']);
    assert.ok(!ranked.some((r) => /^Men /.test(r.signal.name)), 'no men');
    assert.ok(!ranked.some((r) => /18-24|65\+/.test(r.signal.name) && r.signal.category === 'demographics'), 'no other ages');
  });

  it('ranks in-market signals first when the spec says the buyer is shopping', () => {
    assert.equal(top('shopping for an electric car', 1)[0], 'In-market: Electric vehicles');
  });

  it('widens informal words through the synonym table', () => {
    assert.equal(top('bookworms', 1)[0], 'Book lovers');
    assert.equal(top('folks caring for elderly parents', 1)[0], 'Life event: New caregivers');
  });

  it('takes a city for its metro, and its visitors only when asked', () => {
    assert.equal(top('people in Bombay', 1)[0], 'Mumbai metro area');
    assert.equal(top('recent visitors to NYC', 1)[0], 'Recent visitors to New York');
  });

  it('reads football as soccer outside North America', () => {
    const names = top('football fans in Manchester', 10);
    const soccer = names.findIndex((n) => /Soccer/.test(n));
    const american = names.findIndex((n) => /American football/.test(n));
    assert.ok(soccer >= 0 && (american === -1 || soccer < american), names.join(' | '));
  });

  it('answers only what `include` admits, and nothing for a spec that matches nothing', () => {
    const custom = (s: CatalogSignal) => s.signal_type === 'custom';
    assert.ok(search.rank('shoppers', custom).every((r) => r.signal.signal_type === 'custom'));
    assert.deepEqual(search.rank('zzzqqqxxx'), []);
  });

  it('ranks deterministically: equal scores keep catalog order', () => {
    const [a, b] = search.rank('over 65');
    assert.equal(a!.score, b!.score);
    assert.ok(signals.indexOf(a!.signal) < signals.indexOf(b!.signal));
  });
});
