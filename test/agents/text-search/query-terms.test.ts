import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import MiniSearch from 'minisearch';
import {
  fuzzyOptions,
  prefixOption,
  queryLimits,
  queryTerms,
  queryText,
} from '../../../src/agents/text-search/index.ts';
import { textBounds } from '../../../src/agents/runtime/index.ts';

const lower = (word: string) => word.toLowerCase();
const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];

/** `count` distinct short words ("w0", "w1", ...), space-separated, cut at `length` characters. */
const distinctWords = (count: number, length: number) =>
  Array.from({ length: count }, (_, i) => `w${i.toString(36)}`)
    .join(' ')
    .slice(0, length);

describe('queryTerms: the bounded query a text becomes', () => {
  it('reads words as the index tokenizer splits them, each term once with its count, in order', () => {
    const query = queryTerms('Sports, SPORTS and live-sports on CTV!', (w) =>
      w.toLowerCase() === 'and' ? null : w.toLowerCase(),
    );
    assert.deepEqual(query.terms, ['sports', 'live', 'on', 'ctv']);
    assert.deepEqual(query.words, ['Sports', 'live', 'on', 'CTV']);
    assert.deepEqual(query.counts, [3, 1, 1, 1]);
    assert.deepEqual(tokenize(queryText(query)), query.words, 'the engine splits the query back into the same words');
  });

  it('leaves out a word longer than maxTermLength: one word of the longest prose gives no term at all', () => {
    assert.deepEqual(queryTerms('q'.repeat(textBounds.prose), lower).terms, []);
    assert.deepEqual(queryTerms('q'.repeat(60_000), lower).terms, []);
    const edge = queryTerms(
      `${'a'.repeat(queryLimits.maxTermLength)} ${'b'.repeat(queryLimits.maxTermLength + 1)}`,
      lower,
    );
    assert.deepEqual(edge.terms, ['a'.repeat(queryLimits.maxTermLength)]);
  });

  it('searches at most maxTerms distinct terms, the first ones, however many distinct words the text has', () => {
    const text = distinctWords(5000, textBounds.prose);
    assert.ok(new Set(tokenize(text)).size > 1000, 'the text has over a thousand distinct words');
    const query = queryTerms(text, lower);
    assert.equal(query.terms.length, queryLimits.maxTerms);
    assert.deepEqual(query.terms, tokenize(text).slice(0, queryLimits.maxTerms));
    assert.ok(query.terms.every((t) => t.length <= queryLimits.maxTermLength));
  });

  it('searches a word repeated throughout the text once, counting it', () => {
    const text = 'video '.repeat(Math.floor(textBounds.prose / 6));
    const query = queryTerms(text, lower);
    assert.deepEqual(query.terms, ['video']);
    assert.deepEqual(query.counts, [Math.floor(textBounds.prose / 6)]);
  });

  it('spends no term on stop words, and counts repeats of kept terms after the budget is spent', () => {
    const text = `the ${distinctWords(queryLimits.maxTerms, Infinity)} the w0 extra`;
    const query = queryTerms(text, (w) => (w === 'the' ? null : w));
    assert.equal(query.terms.length, queryLimits.maxTerms);
    assert.equal(query.terms.includes('extra'), false, 'a new word after the budget is not searched');
    assert.equal(query.counts[0], 2, 'w0 again still counts');
  });

  it('reads at most maxScan characters of any text', () => {
    const text = `${' '.repeat(queryLimits.maxScan)}sports`;
    assert.deepEqual(queryTerms(text, lower).terms, []);
    assert.deepEqual(queryTerms(`${' '.repeat(queryLimits.maxScan - 6)}sports`, lower).terms, ['sports']);
    const processed: string[] = [];
    queryTerms(distinctWords(20_000, 200_000), (w) => (processed.push(w), w));
    assert.ok(processed.join(' ').length <= queryLimits.maxScan, 'no word past maxScan is even processed');
  });

  it('matches prefixes only of terms of minPrefixLength or more, and forgives at most maxEdits typos, only in terms of sensible length', () => {
    const prefix = prefixOption();
    assert.equal(prefix('tv'), false);
    assert.equal(prefix('spo'), true);
    const { fuzzy, maxFuzzy } = fuzzyOptions();
    assert.equal(maxFuzzy, queryLimits.maxEdits);
    assert.equal(maxFuzzy, 2);
    assert.equal(fuzzy('abc'), false);
    assert.equal(fuzzy('comuters'), 0.2);
    assert.equal(fuzzy('x'.repeat(queryLimits.maxTermLength + 1)), false);
  });
});
