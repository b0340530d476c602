import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { identifiersOf, resolveList } from '../../../../src/agents/governance/property-lists/resolve-list.ts';
import { AuthorizationIndex } from '../../../../src/registry/lookups/index.ts';
import { indexPublisher } from '../../../support/indexed-publisher.ts';

describe('a property list resolved from the registry’s authorization index', () => {
  it('holds the properties its sources name, of the filtered types, less exclusions, each once', () => {
    const index = new AuthorizationIndex();
    const typeOf = (k: number) => (k % 3 === 2 ? 'mobile_app' : 'website');
    indexPublisher(index, 'news.example', 6, { typeOf });
    indexPublisher(index, 'sport.example', 3, { typeOf });
    const members = resolveList(index, {
      base_properties: [
        { selection_type: 'publisher_tags', publisher_domain: 'news.example', tags: ['premium'] },
        { selection_type: 'publisher_ids', publisher_domain: 'news.example', property_ids: ['prop_0', 'prop_1'] },
        { selection_type: 'identifiers', identifiers: [{ type: 'domain', value: 'S1.sport.example' }] },
      ],
      filters: { property_types: ['website'], exclude_identifiers: [{ type: 'domain', value: 's4.news.example' }] },
    });
    assert.deepEqual(
      identifiersOf(index, members).map((i) => i.value),
      ['s0.news.example', 's1.news.example', 's1.sport.example'],
      'premium 0, 2 (mobile: out), 4 (excluded); ids 0 (again) and 1; sport 1 by identifier',
    );
  });

  it('drops a property whose publisher went stale or that lost its last authorization, as the index learns it', () => {
    const index = new AuthorizationIndex();
    indexPublisher(index, 'news.example', 2);
    indexPublisher(index, 'blog.example', 2);
    indexPublisher(index, 'ungranted.example', 2, { granted: false });
    const list = {};
    assert.equal(resolveList(index, list).length, 4, 'the whole registry: the granted publishers’ properties');
    index.apply('publisher', { publisher_domain: 'news.example', status: 'stale', reason: 'HTTP 404' });
    index.apply('authorization.revoked', { id: 'grant-blog.example', publisher_domain: 'blog.example' });
    assert.deepEqual(resolveList(index, list), []);
  });

  it('answers an identifier two properties share once', () => {
    const index = new AuthorizationIndex();
    indexPublisher(index, 'a.example', 2);
    indexPublisher(index, 'b.example', 1);
    // b's property also claims a's first property's domain.
    index.apply('property', {
      property_rid: 'b.example-0',
      publisher_domain: 'b.example',
      identifiers: [
        { type: 'domain', value: 's0.a.example' },
        { type: 'domain', value: 's0.b.example' },
      ],
      property: { property_id: 'prop_0', property_type: 'website', name: 'b 0', tags: ['premium'] },
      status: 'active',
    });
    assert.deepEqual(
      identifiersOf(index, resolveList(index, {})).map((i) => i.value),
      ['s0.a.example', 's1.a.example', 's0.b.example'],
    );
  });

  it('resolves a list of 100,000 properties', () => {
    const index = new AuthorizationIndex();
    for (let i = 0; i < 1000; i++) indexPublisher(index, `p${i}.example`, 100);
    const list = {
      base_properties: Array.from({ length: 1000 }, (_, i) => ({
        selection_type: 'publisher_tags' as const,
        publisher_domain: `p${i}.example`,
        tags: ['premium', 'standard'],
      })),
    };
    const members = resolveList(index, list);
    assert.equal(members.length, 100_000);
    assert.equal(identifiersOf(index, members).length, 100_000);
  });
});
