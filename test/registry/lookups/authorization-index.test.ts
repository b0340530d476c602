import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuthorizationIndex, checkAuthorization } from '../../../src/registry/lookups/index.ts';

/**
 * The index's own bookkeeping as events change what it holds: the shapes a check walks (one
 * property or several under an identifier, one coverage or several under an agent) must follow
 * every update, merge and revocation, and leave nothing behind.
 */

const agent = 'https://sales.example/mcp';
const property = (
  rid: string,
  publisher: string,
  identifiers: Array<[string, string]>,
  extra: Record<string, unknown> = {},
) => ({
  property_rid: rid,
  publisher_domain: publisher,
  identifiers: identifiers.map(([type, value]) => ({ type, value })),
  property: { property_id: rid, property_type: 'website', name: rid, tags: ['news'] },
  status: 'active',
  operator_declarations: [{ operator_domain: 'ops.example', brand_id: 'ops', relationship: 'direct', agents: [agent] }],
  ...extra,
});
const grant = (id: string, publisher: string, scopes: Array<[string, string]>, delegation = 'direct') => ({
  id,
  publisher_domain: publisher,
  agent_url: agent,
  agent_url_canonical: agent,
  authorization_type: 'property_ids',
  delegation_type: delegation,
  scopes: scopes.map(([kind, value]) => ({ target_publisher: publisher, kind, value })),
});
const rids = (found: readonly { rid: string }[]) => found.map((p) => p.rid).sort();
const status = (index: AuthorizationIndex, value: string, delegation_type?: string) =>
  checkAuthorization(index, { agent, property: { identifier: { type: 'domain', value } }, delegation_type }).status;

describe('authorization index bookkeeping', () => {
  it('keeps every property sharing an identifier, and the rest when one goes', () => {
    const index = new AuthorizationIndex();
    index.apply('property.created', property('a', 'one.example', [['domain', 'shared.example']]));
    index.apply('property.created', property('b', 'two.example', [['domain', 'Shared.example']]));
    index.apply('property.created', property('c', 'three.example', [['domain', 'shared.example']]));
    assert.deepEqual(rids(index.propertiesByIdentifier('domain', 'SHARED.example')), ['a', 'b', 'c']);
    index.apply('property.merged', { alias_rid: 'b' });
    assert.deepEqual(rids(index.propertiesByIdentifier('domain', 'shared.example')), ['a', 'c']);
    index.apply('property.merged', { alias_rid: 'a' });
    assert.deepEqual(rids(index.propertiesByIdentifier('domain', 'shared.example')), ['c']);
    index.apply('property.merged', { alias_rid: 'c' });
    assert.deepEqual(index.propertiesByIdentifier('domain', 'shared.example'), []);
    assert.deepEqual(index.propertiesOfPublisher('three.example'), []);
  });

  it('lists a property once when two of its identifiers normalize alike, and forgets old identifiers on update', () => {
    const index = new AuthorizationIndex();
    index.apply(
      'property.created',
      property('a', 'one.example', [
        ['domain', 'site.example'],
        ['domain', 'SITE.example'],
      ]),
    );
    assert.deepEqual(rids(index.propertiesByIdentifier('domain', 'site.example')), ['a']);
    index.apply('property.updated', property('a', 'one.example', [['domain', 'moved.example']]));
    assert.deepEqual(index.propertiesByIdentifier('domain', 'site.example'), []);
    assert.deepEqual(rids(index.propertiesByIdentifier('domain', 'moved.example')), ['a']);
    assert.equal(index.propertyById('one.example', 'a')?.identifiers[0]?.value, 'moved.example');
  });

  it('follows an agent’s grants at a publisher one by one: each revocation leaves the others covering', () => {
    const index = new AuthorizationIndex();
    index.apply('property.created', property('a', 'one.example', [['domain', 'a.example']]));
    index.apply('authorization.granted', grant('g1', 'one.example', [['property_id', 'a']], 'direct'));
    index.apply('authorization.granted', grant('g2', 'one.example', [['tag', 'news']], 'delegated'));
    index.apply('authorization.granted', grant('g3', 'one.example', [['all', '']], 'direct'));
    assert.equal(index.coveragesAt('one.example', agent).length, 3);
    assert.equal(status(index, 'a.example', 'direct'), 'authorized');
    index.apply('authorization.revoked', { id: 'g1' });
    index.apply('authorization.revoked', { id: 'g3' });
    assert.deepEqual(
      index.coveragesAt('one.example', agent).map((c) => c.grant.id),
      ['g2'],
    );
    assert.equal(status(index, 'a.example', 'direct'), 'unauthorized');
    index.apply('authorization.modified', grant('g2', 'one.example', [['tag', 'sports']], 'direct'));
    assert.equal(
      status(index, 'a.example', 'direct'),
      'unauthorized',
      'the modified grant no longer covers the property',
    );
    index.apply('authorization.revoked', { id: 'g2' });
    assert.deepEqual(index.agentsAt('one.example'), []);
    assert.deepEqual(index.grantsOf(agent), []);
  });

  it('answers unknown while the property or its publisher is stale, and authorized again once both recover', () => {
    const index = new AuthorizationIndex();
    index.apply('publisher.adagents_discovered', { publisher_domain: 'one.example', status: 'active' });
    index.apply('property.created', property('a', 'one.example', [['domain', 'a.example']]));
    index.apply('authorization.granted', grant('g1', 'one.example', [['all', '']]));
    assert.equal(status(index, 'a.example'), 'authorized');
    index.apply('property.stale', { property_rid: 'a' });
    assert.equal(status(index, 'a.example'), 'unknown');
    index.apply('property.reactivated', property('a', 'one.example', [['domain', 'a.example']]));
    assert.equal(status(index, 'a.example'), 'authorized');
    index.apply('publisher.adagents_changed', { publisher_domain: 'one.example', status: 'stale', reason: 'HTTP 404' });
    assert.equal(status(index, 'a.example'), 'unknown');
    index.apply('publisher.adagents_changed', { publisher_domain: 'one.example', status: 'active' });
    assert.equal(status(index, 'a.example'), 'authorized');
  });

  it('holds crawled properties only: a community entry’s event (it carries the entry) changes nothing', () => {
    const index = new AuthorizationIndex();
    // As a save's property.created reads: the entry in resolve's shape, beside the summary fields.
    index.apply('property.created', {
      property_rid: 'entry-1',
      classification: 'property',
      source: 'contributed',
      identifiers: [{ type: 'domain', value: 'community.example' }],
      publisher_domain: 'community.example',
      entry: { id: 'entry-1', publisher_domain: 'community.example', properties: [], authorized_agents: [] },
    });
    assert.deepEqual(index.propertiesByIdentifier('domain', 'community.example'), []);
    assert.deepEqual(index.propertiesOfPublisher('community.example'), []);
    index.apply('property.created', property('a', 'community.example', [['domain', 'community.example']]));
    assert.deepEqual(rids(index.propertiesByIdentifier('domain', 'community.example')), ['a']);
  });
});
