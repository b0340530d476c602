import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { identifiersOf, resolveList } from '../../../../src/agents/governance/property-lists/resolve-list.ts';
import { AuthorizationIndex } from '../../../../src/registry/lookups/index.ts';

type Json = Record<string, unknown>;
const agent = 'https://sales.example/mcp';

/** A publisher with `count` properties (web, premium every other one), all granted to `agent` unless `granted` is false. */
function publisher(index: AuthorizationIndex, domain: string, count: number, { granted = true, stale = false } = {}) {
  index.apply('publisher', { publisher_domain: domain, status: stale ? 'stale' : 'active' });
  for (let k = 0; k < count; k++)
    index.apply('property', {
      property_rid: `${domain}-${k}`,
      publisher_domain: domain,
      identifiers: [{ type: 'domain', value: `s${k}.${domain}` }],
      property: {
        property_id: `prop_${k}`,
        property_type: k % 3 === 2 ? 'mobile_app' : 'website',
        name: `${domain} ${k}`,
        tags: [k % 2 === 0 ? 'premium' : 'standard'],
      },
      status: 'active',
    } satisfies Json);
  if (granted)
    index.apply('authorization', {
      id: `grant-${domain}`,
      publisher_domain: domain,
      agent_url: agent,
      agent_url_canonical: agent,
      authorization_type: 'publisher_properties',
      scopes: [{ target_publisher: domain, kind: 'all', value: '' }],
    });
}

describe('a property list resolved from the registry’s authorization index', () => {
  it('holds the properties its sources name, of the filtered types, less exclusions, each once', () => {
    const index = new AuthorizationIndex();
    publisher(index, 'news.example', 6);
    publisher(index, 'sport.example', 3);
    const members = resolveList(index, {
      base_properties: [
        { selection_type: 'publisher_tags', publisher_domain: 'news.example', tags: ['premium'] },
        { selection_type: 'publisher_ids', publisher_domain: 'news.example', property_ids: ['prop_0', 'prop_1'] },
        { selection_type: 'identifiers', identifiers: [{ type: 'domain', value: 'S1.sport.example' }] },
      ],
      filters: { property_types: ['website'], exclude_identifiers: [{ type: 'domain', value: 's4.news.example' }] },
    });
    assert.deepEqual(
      identifiersOf(members).map((i) => i.value),
      ['s0.news.example', 's1.news.example', 's1.sport.example'],
      'premium 0, 2 (mobile: out), 4 (excluded); ids 0 (again) and 1; sport 1 by identifier',
    );
  });

  it('drops a property whose publisher went stale or that lost its last authorization, as the index learns it', () => {
    const index = new AuthorizationIndex();
    publisher(index, 'news.example', 2);
    publisher(index, 'blog.example', 2);
    publisher(index, 'ungranted.example', 2, { granted: false });
    const list = {};
    assert.equal(resolveList(index, list).length, 4, 'the whole registry: the granted publishers’ properties');
    index.apply('publisher', { publisher_domain: 'news.example', status: 'stale', reason: 'HTTP 404' });
    index.apply('authorization.revoked', { id: 'grant-blog.example', publisher_domain: 'blog.example' });
    assert.deepEqual(resolveList(index, list), []);
  });

  it('resolves a list of 100,000 properties', () => {
    const index = new AuthorizationIndex();
    for (let i = 0; i < 1000; i++) publisher(index, `p${i}.example`, 100);
    const list = {
      base_properties: Array.from({ length: 1000 }, (_, i) => ({
        selection_type: 'publisher_tags' as const,
        publisher_domain: `p${i}.example`,
        tags: ['premium', 'standard'],
      })),
    };
    const members = resolveList(index, list);
    assert.equal(members.length, 100_000);
    assert.equal(identifiersOf(members).length, 100_000);
  });
});
