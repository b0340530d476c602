import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApError } from '../../../../src/protocol/errors.ts';
import { queryKey, searchQuery } from '../../../../src/registry/agents/search/search-query.ts';

// The longest CSV the route's schema takes (SearchQueryString).
const maxCsv = 8000;

describe('searchQuery: an agent search’s filters, bounded whatever the query string', () => {
  it('takes one value as long as the longest CSV as one value, compared exactly', () => {
    const query = searchQuery({ tags: 't'.repeat(maxCsv) });
    assert.deepEqual([...query.filters.get('tags')!], ['t'.repeat(maxCsv)]);
  });

  it('takes up to 100 distinct values per dimension, and refuses more before any matching', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => `t${i}`);
    assert.equal(searchQuery({ tags: hundred.join(',') }).filters.get('tags')!.size, 100);
    const many = Array.from({ length: 4000 }, (_, i) => `t${i}`)
      .join(',')
      .slice(0, maxCsv);
    assert.throws(
      () => searchQuery({ tags: many }),
      (err: unknown) => err instanceof ApError && err.code === 'invalid_request' && /at most 100/.test(err.message),
    );
  });

  it('keeps a value repeated up to the limit once', () => {
    const query = searchQuery({ channels: Array(100).fill('display').join(','), markets: 'us,US, us ' });
    assert.deepEqual([...query.filters.get('channels')!], ['display']);
    assert.deepEqual([...query.filters.get('markets')!], ['US']);
    assert.equal(
      queryKey(query),
      queryKey(searchQuery({ markets: 'US', channels: 'display' })),
      'the same search, the same ranking',
    );
  });
});
