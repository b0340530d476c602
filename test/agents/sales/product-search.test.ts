import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  demoCatalogPath,
  loadCatalogFile,
  resolveProducts,
  type Product,
} from '../../../src/agents/sales/catalog/index.ts';
import { ProductSearch } from '../../../src/agents/sales/product-search.ts';
import { textBounds } from '../../../src/agents/runtime/index.ts';
import { queryLimits } from '../../../src/agents/text-search/index.ts';

/** `count` distinct words no product has ("zq0", "zq1", ...), space-separated. */
const strangers = (count: number) => Array.from({ length: count }, (_, i) => `zq${i.toString(36)}`).join(' ');

describe('ProductSearch: the work a brief costs is bounded', () => {
  let products: readonly Product[];
  let search: ProductSearch;
  before(async () => {
    products = resolveProducts(await loadCatalogFile(demoCatalogPath), 'http://sales.example');
    search = new ProductSearch(products);
  });

  const ids = (text: string) => search.rank(text).map((r) => r.product.product_id);

  it('matches nothing, and searches no term, for one word of the longest brief (or the 60,000 characters that took seconds)', () => {
    for (const length of [textBounds.prose, 60_000]) {
      const brief = 'q'.repeat(length);
      assert.deepEqual(search.query(brief).terms, []);
      assert.deepEqual(search.rank(brief), []);
    }
  });

  it('searches the first maxTerms distinct words of a brief of many short words, and answers what they match', () => {
    const brief = `recipe ${strangers(5000)}`.slice(0, textBounds.prose);
    const query = search.query(brief);
    assert.equal(query.terms.length, queryLimits.maxTerms);
    assert.ok(query.terms.every((t) => t.length <= queryLimits.maxTermLength));
    const ranked = search.rank(brief);
    assert.ok(ranked.length > 0, 'the recipe products');
    assert.deepEqual(
      ranked.map((r) => r.product.product_id),
      ids('recipe'),
    );
    assert.ok(
      ranked.every((r) => r.terms.every((t) => query.terms.includes(t))),
      'every matched term was one searched',
    );
  });

  it('does not look for a word past the term budget', () => {
    assert.ok(ids('recipe').length > 0);
    assert.deepEqual(ids(`${strangers(queryLimits.maxTerms)} recipe`), [], 'recipe is the 65th distinct word');
    assert.deepEqual(ids(`${strangers(queryLimits.maxTerms - 1)} recipe`), ids('recipe'), 'as the 64th it is searched');
  });

  it('searches a word repeated throughout a brief once, ranking as the word alone does', () => {
    const brief = 'video '.repeat(Math.floor(textBounds.prose / 6));
    assert.deepEqual(search.query(brief).terms, ['video']);
    assert.deepEqual(ids(brief), ids('video'));
  });

  it('still forgives a typo when nothing matches as written, and still matches a prefix', () => {
    assert.ok(ids('recipe').length > 0);
    assert.equal(ids('recipr')[0], ids('recipe')[0], 'one edit away');
    assert.deepEqual(new Set(ids('reci')), new Set(ids('recipe')), 'the start of the word');
  });
});
