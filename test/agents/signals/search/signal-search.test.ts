import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  demoSignalsPath,
  loadSignalsCatalog,
  type CatalogSignal,
} from '../../../../src/agents/signals/catalog/index.ts';
import { SignalSearch } from '../../../../src/agents/signals/search/signal-search.ts';
import { readSpec } from '../../../../src/agents/signals/search/read-spec.ts';
import { textBounds } from '../../../../src/agents/runtime/index.ts';
import { queryLimits } from '../../../../src/agents/text-search/index.ts';

describe('SignalSearch over the demo catalog', () => {
  let search: SignalSearch;
  let signals: readonly CatalogSignal[];
  const top = (spec: string, n = 3, include?: (s: CatalogSignal) => boolean) =>
    search
      .rank(spec, include)
      .slice(0, n)
      .map((r) => r.signal.name);

  before(async () => {
    signals = (await loadSignalsCatalog(demoSignalsPath)).signals;
    search = new SignalSearch(signals);
  });

  it('puts the demographic a spec states first, and never the opposite gender or a disjoint age', () => {
    const ranked = search.rank('women 25-34');
    assert.deepEqual(
      ranked.slice(0, 2).map((r) => r.signal.name),
      ['Women 25-34', 'Women 25-34'],
    );
    assert.ok(!ranked.some((r) => /^Men /.test(r.signal.name)), 'no men');
    assert.ok(
      !ranked.some((r) => /18-24|65\+/.test(r.signal.name) && r.signal.category === 'demographics'),
      'no other ages',
    );
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

describe('SignalSearch: the work a spec costs is bounded', () => {
  let search: SignalSearch;
  const names = (spec: string) => search.rank(spec).map((r) => r.signal.name);
  /** `count` distinct words no signal has ("zq0", "zq1", ...), space-separated. */
  const strangers = (count: number) => Array.from({ length: count }, (_, i) => `zq${i.toString(36)}`).join(' ');

  before(async () => {
    search = new SignalSearch((await loadSignalsCatalog(demoSignalsPath)).signals);
  });

  it('searches no term for one word of the longest spec, or of 60,000 characters', () => {
    for (const length of [textBounds.prose, 60_000]) {
      const spec = 'q'.repeat(length);
      assert.deepEqual(search.query(spec).terms, []);
      assert.deepEqual(search.rank(spec), []);
    }
  });

  it('searches the first maxTerms distinct words of a spec of many short words, and answers what they match', () => {
    const spec = `yoga ${strangers(5000)}`.slice(0, textBounds.prose);
    const query = search.query(spec);
    assert.equal(query.terms.length, queryLimits.maxTerms);
    assert.ok(query.terms.every((t) => t.length <= queryLimits.maxTermLength));
    assert.deepEqual(names(spec), names('yoga'));
    assert.ok(names('yoga').length > 0);
  });

  it('does not look for a word past the term budget', () => {
    assert.deepEqual(names(`${strangers(queryLimits.maxTerms)} yoga`), [], 'yoga is the 65th distinct word');
    assert.deepEqual(names(`${strangers(queryLimits.maxTerms - 1)} yoga`), names('yoga'), 'as the 64th it is searched');
  });

  it('searches a word repeated throughout a spec once, ranking as the word alone does', () => {
    const spec = 'luxury '.repeat(Math.floor(textBounds.prose / 7));
    assert.equal(search.query(spec).terms.length, 1);
    assert.deepEqual(names(spec), names('luxury'));
  });

  it('reads no further than maxScan characters', () => {
    assert.deepEqual(names(`${' '.repeat(queryLimits.maxScan)}women 25-34 yoga`), []);
  });

  it('reads a run of digits as one number from its first digit (a run was once tried from each of its digits: seconds of work for a long one)', () => {
    assert.deepEqual(readSpec(`HHI $${'1'.repeat(12)}+`).income, [Number('1'.repeat(12)) / 1000, Infinity]);
    assert.deepEqual(readSpec(`${'3'.repeat(12)} to ${'4'.repeat(12)} employees`).employees, [
      Number('3'.repeat(12)),
      Number('4'.repeat(12)),
    ]);
    for (const spec of [
      `HHI $${'1'.repeat(9_995)}`,
      `${'1'.repeat(9_990)} employees`,
      `income $1${',000'.repeat(2_499)}`,
    ]) {
      assert.ok(Array.isArray(search.rank(spec)));
    }
  });
});
