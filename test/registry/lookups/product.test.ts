import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agents } from '../../support/authorization-world.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import type { TestServer } from '../../support/server.ts';
import { assertAuthorizationResult, assertRejected, postJson, startWorld } from './world.ts';

const dailyPlanet = 'dailyplanet.example';
const identifiers = {
  site: { type: 'domain', value: 'dailyplanet.example' },
  app: { type: 'ios_bundle', value: 'com.dailyplanet.app' },
  ctv: { type: 'roku_store_id', value: 'dp-roku-1' },
};

/** Each selected property as `property_id (or identifier) → status/violation`. */
const outcomes = (selector: Json) =>
  selector.properties.map((p: Json) => [
    p.property?.property_id ?? p.identifiers[0].value,
    p.result.violation ? `${p.result.status}/${p.result.violation.code}` : p.result.status,
  ]);

eachEngine('product authorization and selector expansion', (engine) => {
  let server: TestServer;
  const authorize = (body: unknown) => postJson(`${server.url}/api/registry/validate/product-authorization`, body);
  const expand = (body: unknown) => postJson(`${server.url}/api/registry/expand/product-identifiers`, body);
  const authorized = async (body: Json) => {
    const res = await authorize(body);
    assert.equal(res.status, 200);
    const answer = await json(res);
    for (const selector of answer.selectors) for (const p of selector.properties) assertAuthorizationResult(p.result);
    return answer;
  };
  const expanded = async (body: Json) => {
    const res = await expand(body);
    assert.equal(res.status, 200);
    return json(res);
  };

  before(async () => {
    server = await startWorld(engine);
  });
  after(() => server.close());

  describe('product authorization', () => {
    it('authorized when every selected property is: meridian sells the site by id', async () => {
      const body = await authorized({
        agent_url: agents.meridian,
        delegation_type: 'delegated',
        publisher_properties: [{ selection_type: 'by_id', publisher_domain: dailyPlanet, property_ids: ['site'] }],
      });
      assert.equal(body.authorized, true);
      assert.equal(body.agent_url_canonical, agents.meridian);
      const [selector] = body.selectors;
      assert.deepEqual(
        { index: selector.index, selection_type: selector.selection_type, publisher_domain: selector.publisher_domain },
        { index: 0, selection_type: 'by_id', publisher_domain: dailyPlanet },
      );
      assert.deepEqual(selector.counts, { authorized: 1, unauthorized: 0, unknown: 0 });
      assert.equal('violation' in selector, false);
      assert.deepEqual(selector.properties[0].result, {
        status: 'authorized',
        publisher_domain: dailyPlanet,
        sales_agent_url: agents.meridian,
      });
      assert.equal(selector.properties[0].property.property_id, 'site');
      assert.deepEqual(selector.properties[0].identifiers, [identifiers.site]);
    });

    it('a by_tag selector mixing authorized and unauthorized properties is not authorized', async () => {
      const body = await authorized({
        agent_url: agents.meridian,
        publisher_properties: [{ selection_type: 'by_tag', publisher_domain: dailyPlanet, property_tags: ['news'] }],
      });
      assert.equal(body.authorized, false);
      assert.deepEqual(body.selectors[0].counts, { authorized: 1, unauthorized: 1, unknown: 0 });
      assert.deepEqual(outcomes(body.selectors[0]), [
        ['site', 'authorized'],
        ['ios_app', 'unauthorized/relationship_mismatch'],
      ]);
    });

    it('counts per selector, and one unauthorized selector makes the product unauthorized', async () => {
      const body = await authorized({
        agent_url: agents.direct,
        delegation_type: 'direct',
        publisher_properties: [
          { selection_type: 'by_id', publisher_domain: dailyPlanet, property_ids: ['site', 'ctv'] },
          { selection_type: 'all', publisher_domain: 'DailyPlanet.Example' },
        ],
      });
      assert.equal(body.authorized, false);
      assert.deepEqual(
        body.selectors.map((s: Json) => s.counts),
        [
          { authorized: 2, unauthorized: 0, unknown: 0 },
          { authorized: 2, unauthorized: 1, unknown: 0 },
        ],
      );
      assert.equal(body.selectors[1].publisher_domain, dailyPlanet, 'the selector’s domain, normalized');
      assert.deepEqual(
        outcomes(body.selectors[1]).find(([id]: string[]) => id === 'ios_app'),
        ['ios_app', 'unauthorized/operator_not_declared'],
      );
    });

    it('a stale publisher’s properties are unknown, and a delegation the publisher does not grant is a mismatch', async () => {
      const body = await authorized({
        agent_url: agents.meridian,
        delegation_type: 'direct',
        publisher_properties: [
          { selection_type: 'all', publisher_domain: 'stalenews.example' },
          { selection_type: 'by_id', publisher_domain: dailyPlanet, property_ids: ['site'] },
        ],
      });
      assert.equal(body.authorized, false);
      assert.deepEqual(body.selectors.map(outcomes), [
        [['site', 'unknown/property_stale']],
        [['site', 'unauthorized/delegation_mismatch']],
      ]);
      assert.deepEqual(body.selectors[0].counts, { authorized: 0, unauthorized: 0, unknown: 1 });
    });

    it('a selector that selects nothing says why: publisher_file_unknown for an unknown publisher, property_not_found for a known one', async () => {
      const body = await authorized({
        agent_url: agents.meridian,
        publisher_properties: [
          { selection_type: 'by_id', publisher_domain: dailyPlanet, property_ids: ['site'] },
          { selection_type: 'all', publisher_domain: 'nowhere.example' },
          { selection_type: 'by_tag', publisher_domain: dailyPlanet, property_tags: ['sports'] },
        ],
      });
      assert.equal(body.authorized, false);
      const [, unknown, none] = body.selectors;
      assert.deepEqual(unknown.counts, { authorized: 0, unauthorized: 0, unknown: 0 });
      assert.deepEqual(unknown.properties, []);
      assert.equal(unknown.violation.code, 'publisher_file_unknown');
      assert.match(unknown.violation.message, /nowhere\.example/);
      assert.deepEqual(none.properties, []);
      assert.equal(none.violation.code, 'property_not_found');
    });

    it('every id a by_id selector names is answered: one its publisher does not declare is property_not_found, so the product is not authorized', async () => {
      const body = await authorized({
        agent_url: agents.meridian,
        delegation_type: 'delegated',
        publisher_properties: [
          { selection_type: 'by_id', publisher_domain: dailyPlanet, property_ids: ['site', 'nope', 'site'] },
          { selection_type: 'by_id', publisher_domain: 'nowhere.example', property_ids: ['home'] },
        ],
      });
      assert.equal(body.authorized, false);
      const [known, unknown] = body.selectors;
      assert.deepEqual(
        known.properties.map((p: Json) => [
          p.property?.property_id ?? null,
          `${p.result.status}/${p.result.violation?.code ?? ''}`,
        ]),
        [
          ['site', 'authorized/'],
          [null, 'unauthorized/property_not_found'],
        ],
      );
      assert.match(known.properties[1].result.violation.message, /"nope"/);
      assert.deepEqual(known.counts, { authorized: 1, unauthorized: 1, unknown: 0 });
      assert.deepEqual(
        unknown.properties.map((p: Json) => `${p.result.status}/${p.result.violation.code}`),
        ['unknown/publisher_file_unknown'],
      );
      assert.equal(unknown.violation, undefined);
    });

    it('an inline selector checks each property by its identifiers, matched to the catalog when known', async () => {
      const body = await authorized({
        agent_url: agents.meridian,
        delegation_type: 'delegated',
        publisher_properties: [
          {
            selection_type: 'inline',
            properties: [
              {
                property_type: 'website',
                name: 'Daily Planet',
                identifiers: [{ type: 'domain', value: 'DailyPlanet.Example' }],
              },
              { identifiers: [{ type: 'domain', value: 'elsewhere.example' }] },
            ],
          },
        ],
      });
      assert.equal(body.authorized, false);
      const [selector] = body.selectors;
      assert.equal(selector.publisher_domain, null);
      assert.deepEqual(selector.counts, { authorized: 1, unauthorized: 0, unknown: 1 });
      assert.equal(selector.properties[0].property.property_id, 'site');
      assert.deepEqual(selector.properties[0].identifiers, [identifiers.site]);
      assert.equal(selector.properties[0].result.status, 'authorized');
      assert.equal(selector.properties[1].property, null);
      assert.deepEqual(selector.properties[1].result.violation.code, 'publisher_file_unknown');

      const alone = await authorized({
        agent_url: agents.meridian,
        publisher_properties: [
          {
            selection_type: 'inline',
            properties: [{ identifiers: [{ type: 'domain', value: 'dailyplanet.example' }] }],
          },
        ],
      });
      assert.equal(alone.authorized, true);

      // Named by two identifiers of different catalog properties: the one that authorizes answers,
      // whichever comes first (as the real-time check ranks several properties under one identifier).
      for (const named of [
        [identifiers.app, identifiers.site],
        [identifiers.site, identifiers.app],
      ]) {
        const both = await authorized({
          agent_url: agents.meridian,
          delegation_type: 'delegated',
          publisher_properties: [{ selection_type: 'inline', properties: [{ identifiers: named }] }],
        });
        assert.equal(both.authorized, true, JSON.stringify(named));
        assert.deepEqual(outcomes(both.selectors[0]), [['site', 'authorized']]);
      }
    });
  });

  describe('selector expansion', () => {
    it('expands all, by_id, by_tag and inline selectors to identifiers, each once overall', async () => {
      const body = await expanded({
        publisher_properties: [
          { selection_type: 'all', publisher_domain: dailyPlanet },
          { selection_type: 'by_id', publisher_domain: dailyPlanet, property_ids: ['ctv', 'no-such-id'] },
          { selection_type: 'by_tag', publisher_domain: dailyPlanet, property_tags: ['app'] },
          {
            selection_type: 'inline',
            properties: [
              {
                property_type: 'website',
                name: 'Daily Planet',
                identifiers: [
                  { type: 'domain', value: 'DAILYPLANET.example' },
                  { type: 'ios_bundle', value: 'com.other.app' },
                ],
              },
            ],
          },
        ],
      });
      assert.deepEqual(
        body.selectors.map((s: Json) => [
          s.index,
          s.selection_type,
          s.publisher_domain,
          s.publisher_status,
          s.properties.map((p: Json) => p.property_id),
        ]),
        [
          [0, 'all', dailyPlanet, 'active', ['site', 'ios_app', 'ctv']],
          [1, 'by_id', dailyPlanet, 'active', ['ctv']],
          [2, 'by_tag', dailyPlanet, 'active', ['ios_app']],
          [3, 'inline', null, 'inline', [null]],
        ],
      );
      assert.deepEqual(body.selectors[0].identifiers, [identifiers.site, identifiers.app, identifiers.ctv]);
      assert.deepEqual(body.selectors[1].identifiers, [identifiers.ctv]);
      assert.deepEqual(body.selectors[2].identifiers, [identifiers.app]);
      assert.deepEqual(body.selectors[3].identifiers, [
        identifiers.site,
        { type: 'ios_bundle', value: 'com.other.app' },
      ]);
      assert.deepEqual(body.selectors[3].properties[0], {
        property_rid: null,
        property_id: null,
        name: 'Daily Planet',
        property_type: 'website',
        identifiers: body.selectors[3].identifiers,
      });
      // Each once overall, with the first selected property carrying it (none for one only inline).
      assert.deepEqual(body.identifiers, [
        { ...identifiers.site, property_id: 'site', publisher_domain: dailyPlanet },
        { ...identifiers.app, property_id: 'ios_app', publisher_domain: dailyPlanet },
        { ...identifiers.ctv, property_id: 'ctv', publisher_domain: dailyPlanet },
        { type: 'ios_bundle', value: 'com.other.app', property_id: null, publisher_domain: null },
      ]);
      assert.equal(body.identifier_count, 4);
      // Every property once: the catalog's three, and the inline one.
      assert.deepEqual(
        body.properties.map((p: Json) => [p.property_id, p.publisher_domain]),
        [
          ['site', dailyPlanet],
          ['ios_app', dailyPlanet],
          ['ctv', dailyPlanet],
          [null, null],
        ],
      );
      assert.equal(body.property_count, 4);
    });

    it('an unknown publisher expands to nothing and says so; a stale one says it is stale', async () => {
      const body = await expanded({
        publisher_properties: [
          { selection_type: 'all', publisher_domain: 'nowhere.example' },
          { selection_type: 'all', publisher_domain: 'stalenews.example' },
        ],
      });
      assert.deepEqual(body.selectors[0], {
        index: 0,
        selection_type: 'all',
        publisher_domain: 'nowhere.example',
        publisher_status: 'unknown',
        properties: [],
        identifiers: [],
      });
      assert.equal(body.selectors[1].publisher_status, 'stale');
      assert.deepEqual(body.identifiers, [
        { type: 'domain', value: 'stalenews.example', property_id: 'site', publisher_domain: 'stalenews.example' },
      ]);
    });
  });

  describe('bad input answers 400 with the catalogue body, never 500', () => {
    const good = { selection_type: 'by_id', publisher_domain: dailyPlanet, property_ids: ['site'] };

    it('names every malformed selector by its path, on both endpoints', async () => {
      const publisher_properties = [
        good,
        { selection_type: 'by_id', publisher_domain: dailyPlanet },
        { selection_type: 'by_tag', publisher_domain: dailyPlanet, property_tags: [] },
        { selection_type: 'all' },
        { selection_type: 'inline', properties: [] },
      ];
      for (const send of [
        () => expand({ publisher_properties }),
        () => authorize({ agent_url: agents.meridian, publisher_properties }),
      ]) {
        const body = await assertRejected(await send(), {
          error: 'validation_failed',
          in: 'body',
          field: 'publisher_properties.1.property_ids',
        });
        assert.deepEqual(
          body.details.map((d: Json) => d.field),
          [
            'publisher_properties.1.property_ids',
            'publisher_properties.2.property_tags',
            'publisher_properties.3.publisher_domain',
            'publisher_properties.4.properties',
          ],
        );
      }
    });

    it('refuses an unknown selection_type, a malformed publisher_domain and a malformed inline identifier', async () => {
      await assertRejected(
        await expand({ publisher_properties: [good, { selection_type: 'everything', publisher_domain: dailyPlanet }] }),
        { error: 'validation_failed', in: 'body', field: 'publisher_properties.1.selection_type' },
      );
      const badDomain = await assertRejected(
        await expand({ publisher_properties: [{ selection_type: 'all', publisher_domain: 'not a domain' }] }),
        { error: 'validation_failed', in: 'body', field: 'publisher_properties.0.publisher_domain' },
      );
      assert.equal(
        badDomain.message,
        'Invalid publisher_properties.0.publisher_domain: it needs at least two labels, like example.com.',
      );
      await assertRejected(
        await expand({ publisher_properties: [{ selection_type: 'inline', properties: [{ identifiers: [] }] }] }),
        { error: 'validation_failed', in: 'body', field: 'publisher_properties.0.properties.0.identifiers' },
      );
      await assertRejected(
        await expand({
          publisher_properties: [{ selection_type: 'inline', properties: [{ identifiers: [{ type: 'domain' }] }] }],
        }),
        { error: 'validation_failed', in: 'body', field: 'publisher_properties.0.properties.0.identifiers.0.value' },
      );
    });

    it('refuses no selectors, too many, and unknown fields', async () => {
      await assertRejected(await expand({ publisher_properties: [] }), {
        error: 'validation_failed',
        in: 'body',
        field: 'publisher_properties',
      });
      await assertRejected(await expand({}), { error: 'validation_failed', in: 'body', field: 'publisher_properties' });
      await assertRejected(await expand({ publisher_properties: Array.from({ length: 101 }, () => good) }), {
        error: 'validation_failed',
        in: 'body',
        field: 'publisher_properties',
      });
      await assertRejected(await expand({ publisher_properties: [good], extra: 1 }), {
        error: 'validation_failed',
        in: 'body',
        field: 'extra',
      });
      await assertRejected(await expand({ publisher_properties: [{ ...good, property_ids: 'site' }] }), {
        error: 'validation_failed',
        in: 'body',
        field: 'publisher_properties.0.property_ids',
      });
    });

    it('refuses a product check without a usable agent_url or with a delegation_type outside its enum', async () => {
      await assertRejected(await authorize({ publisher_properties: [good] }), {
        error: 'validation_failed',
        in: 'body',
        field: 'agent_url',
      });
      await assertRejected(await authorize({ agent_url: 'not a url', publisher_properties: [good] }), {
        error: 'validation_failed',
        in: 'body',
        field: 'agent_url',
      });
      await assertRejected(
        await authorize({ agent_url: agents.meridian, delegation_type: 'resold', publisher_properties: [good] }),
        { error: 'validation_failed', in: 'body', field: 'delegation_type' },
      );
      await assertRejected(
        await authorize({
          agent_url: agents.meridian,
          publisher_properties: [{ ...good, property_ids: ['si\u0000te'] }],
        }),
        { error: 'validation_failed', in: 'body', field: 'publisher_properties.0.property_ids.0' },
      );
    });

    it('every POST refuses invalid JSON, an empty body and a body that is not JSON (415)', async () => {
      for (const path of [
        'validate/property-authorization',
        'validate/product-authorization',
        'expand/product-identifiers',
      ]) {
        const url = `${server.url}/api/registry/${path}`;
        await assertRejected(
          await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"publisher_properties": [',
          }),
          { error: 'invalid_json' },
        );
        await assertRejected(
          await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '' }),
          { error: 'invalid_json' },
        );
        await assertRejected(
          await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'publisher_properties' }),
          { status: 415, error: 'unsupported_media_type' },
        );
        await assertRejected(
          await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' }),
          { error: 'validation_failed' },
        );
      }
    });
  });
});
