import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agents, signingKey } from '../../support/authorization-world.ts';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import type { TestServer } from '../../support/server.ts';
import { assertAuthorizationResult, assertRejected, check, checked, postJson, startWorld, uuid } from './world.ts';

const site = { identifier_type: 'domain', identifier_value: 'dailyplanet.example' };
const iosApp = { identifier_type: 'ios_bundle', identifier_value: 'com.dailyplanet.app' };
const ctv = { identifier_type: 'roku_store_id', identifier_value: 'dp-roku-1' };

const meridianDeclares = (relationship: string) => ({
  operator_domain: 'meridian.example',
  brand_id: 'meridian',
  relationship,
  agents: [agents.meridian],
});
const dailyPlanetOwns = {
  operator_domain: 'dailyplanet.example',
  brand_id: 'dailyplanet',
  relationship: 'owned',
  agents: [agents.direct],
};
const byOperator = (declarations: Json[]) =>
  [...declarations].sort((a, b) => a.operator_domain.localeCompare(b.operator_domain));

eachEngine('real-time property authorization check', (engine) => {
  let server: TestServer;
  // Still: every answer of a test says the same checked_at, so answers compare whole.
  const clock = new ManualClock();
  const bulk = (checks: unknown) => postJson(`${server.url}/api/registry/validate/property-authorization`, { checks });

  before(async () => {
    server = await startWorld(engine, clock);
  });
  after(() => server.close());

  describe('authorized when both sides agree', () => {
    it('meridian sells the Daily Planet site as delegated: the publisher grants it (pinning its key) and meridian’s brand.json declares it delegated', async () => {
      const body = await checked(server, { agent_url: agents.meridian, ...site, delegation_type: 'delegated' });
      assert.deepEqual(body.result, {
        status: 'authorized',
        publisher_domain: 'dailyplanet.example',
        sales_agent_url: agents.meridian,
      });
      assert.equal(body.agent_url_canonical, agents.meridian);
      assert.equal(body.delegation_type, 'delegated');
      assert.match(body.property.property_rid, uuid);
      assert.deepEqual(
        { ...body.property, property_rid: undefined },
        {
          property_rid: undefined,
          publisher_domain: 'dailyplanet.example',
          property_id: 'site',
          property_type: 'website',
          name: 'Daily Planet',
          identifiers: [{ type: 'domain', value: 'dailyplanet.example' }],
          tags: ['news'],
          status: 'active',
        },
      );
      assert.equal(body.publisher.domain, 'dailyplanet.example');
      assert.equal(body.publisher.file, 'found');
      assert.equal(body.publisher.delegation_confirmed, true);
      assert.equal(body.publisher.authorizations.length, 1);
      const [grant] = body.publisher.authorizations;
      assert.match(grant.authorization_id, uuid);
      assert.deepEqual(
        { ...grant, authorization_id: undefined },
        {
          authorization_id: undefined,
          agent_url: agents.meridian,
          agent_url_canonical: agents.meridian,
          source_domain: 'dailyplanet.example',
          authorization_type: 'property_ids',
          authorized_for: 'Display and app inventory',
          delegation_type: 'delegated',
          signing_keys: [signingKey],
        },
      );
      assert.deepEqual(byOperator(body.operator.declarations), [dailyPlanetOwns, meridianDeclares('delegated')]);
      assert.deepEqual(body.operator.confirmed_by, meridianDeclares('delegated'));
      assert.equal(body.operator.relationship_confirmed, true);
    });

    it('the direct agent sells the Roku app as direct: the publisher grants it by tag and its own brand.json owns the app, which confirms direct', async () => {
      const body = await checked(server, { agent_url: agents.direct, ...ctv, delegation_type: 'direct' });
      assert.deepEqual(body.result, {
        status: 'authorized',
        publisher_domain: 'dailyplanet.example',
        sales_agent_url: agents.direct,
      });
      assert.equal(body.property.property_id, 'ctv');
      assert.equal(body.publisher.authorizations.length, 1);
      assert.equal(body.publisher.authorizations[0].authorization_type, 'property_tags');
      assert.equal(body.publisher.authorizations[0].delegation_type, 'direct');
      assert.equal('signing_keys' in body.publisher.authorizations[0], false, 'no keys pinned, none shown');
      assert.equal(body.publisher.delegation_confirmed, true);
      assert.deepEqual(body.operator.declarations, [dailyPlanetOwns]);
      assert.deepEqual(body.operator.confirmed_by, dailyPlanetOwns);
      assert.equal(body.operator.relationship_confirmed, true);
    });

    it('with no delegation claimed, the publisher’s stated delegation is the one the operator must match', async () => {
      const body = await checked(server, { agent_url: agents.meridian, ...site });
      assert.equal(body.result.status, 'authorized');
      assert.equal(body.delegation_type, 'delegated');
      assert.deepEqual(body.operator.confirmed_by, meridianDeclares('delegated'));
    });

    it('names the property by publisher_domain and property_id as well as by identifier', async () => {
      const byId = await checked(server, {
        agent_url: agents.meridian,
        publisher_domain: 'DailyPlanet.Example',
        property_id: 'site',
        delegation_type: 'delegated',
      });
      const byIdentifier = await checked(server, { agent_url: agents.meridian, ...site, delegation_type: 'delegated' });
      assert.equal(byId.result.status, 'authorized');
      // The same answer, but for the question as asked.
      const { identifier_type, identifier_value, ...answer } = byIdentifier;
      assert.deepEqual([identifier_type, identifier_value], ['domain', 'dailyplanet.example']);
      assert.deepEqual(byId, answer);
    });
  });

  describe('each violation, with its status', () => {
    it('agent_not_authorized: the publisher grants AdNet only its app, not its site', async () => {
      const body = await checked(server, { agent_url: agents.adnet, ...site });
      assert.equal(body.result.status, 'unauthorized');
      assert.equal(body.result.publisher_domain, 'dailyplanet.example');
      assert.equal(body.result.violation.code, 'agent_not_authorized');
      assert.equal(body.property.property_id, 'site');
      assert.deepEqual(body.publisher.authorizations, []);
      assert.equal(body.publisher.delegation_confirmed, false);
      assert.equal(body.publisher.file, 'found');
      assert.deepEqual(byOperator(body.operator.declarations), [dailyPlanetOwns, meridianDeclares('delegated')]);
      assert.equal(body.operator.confirmed_by, null);
      assert.equal(body.operator.relationship_confirmed, false);
    });

    it('delegation_mismatch: meridian is granted the site as delegated, not direct', async () => {
      const body = await checked(server, { agent_url: agents.meridian, ...site, delegation_type: 'direct' });
      assert.equal(body.result.status, 'unauthorized');
      assert.equal(body.result.violation.code, 'delegation_mismatch');
      assert.match(body.result.violation.message, /delegated, not direct/);
      assert.equal(body.delegation_type, 'direct');
      assert.equal(body.publisher.authorizations.length, 1, 'the grant that exists is shown');
      assert.equal(body.publisher.authorizations[0].delegation_type, 'delegated');
      assert.equal(body.publisher.delegation_confirmed, false);
      assert.equal(body.operator.confirmed_by, null);
    });

    it('operator_not_declared: AdNet is granted the app but publishes no brand.json that declares it', async () => {
      const body = await checked(server, { agent_url: agents.adnet, ...iosApp, delegation_type: 'ad_network' });
      assert.equal(body.result.status, 'unauthorized');
      assert.equal(body.result.violation.code, 'operator_not_declared');
      assert.equal(body.property.property_id, 'ios_app');
      assert.equal(body.publisher.authorizations.length, 1);
      assert.equal(body.publisher.authorizations[0].agent_url, agents.adnet);
      assert.equal(body.publisher.delegation_confirmed, true);
      assert.deepEqual(
        body.operator.declarations,
        [meridianDeclares('direct')],
        'the only declaration is meridian’s, which does not list AdNet',
      );
      assert.equal(body.operator.confirmed_by, null);
      assert.equal(body.operator.relationship_confirmed, false);
    });

    it('relationship_mismatch: meridian is granted the app as delegated but its brand.json declares it direct', async () => {
      for (const query of [
        { agent_url: agents.meridian, ...iosApp, delegation_type: 'delegated' },
        { agent_url: agents.meridian, ...iosApp },
      ]) {
        const body = await checked(server, query);
        assert.equal(body.result.status, 'unauthorized');
        assert.equal(body.result.violation.code, 'relationship_mismatch');
        assert.match(body.result.violation.message, /as direct/);
        assert.equal(body.delegation_type, 'delegated');
        assert.equal(body.publisher.delegation_confirmed, true);
        assert.equal(body.publisher.authorizations[0].signing_keys[0].kid, signingKey.kid);
        assert.deepEqual(body.operator.declarations, [meridianDeclares('direct')]);
        assert.equal(body.operator.confirmed_by, null);
        assert.equal(body.operator.relationship_confirmed, false);
      }
    });

    it('property_stale: stalenews.example’s file disappeared, so its grant to meridian cannot be vouched for (unknown, never authorized)', async () => {
      const body = await checked(server, {
        agent_url: agents.meridian,
        identifier_type: 'domain',
        identifier_value: 'stalenews.example',
        delegation_type: 'delegated',
      });
      assert.equal(body.result.status, 'unknown');
      assert.equal(body.result.publisher_domain, 'stalenews.example');
      assert.equal(body.result.violation.code, 'property_stale');
      assert.match(body.result.violation.message, /adagents\.json answered HTTP 404/);
      assert.equal(body.property.status, 'stale');
      assert.equal(body.publisher.file, 'stale');
      assert.equal(body.publisher.authorizations.length, 1, 'the stale grant is shown');
      assert.equal(body.publisher.delegation_confirmed, false);
      assert.deepEqual(body.operator.declarations, [meridianDeclares('delegated')]);
      assert.equal(body.operator.confirmed_by, null);
    });

    it('publisher_file_unknown: no adagents.json declares the identifier (unknown)', async () => {
      const body = await checked(server, {
        agent_url: agents.meridian,
        identifier_type: 'domain',
        identifier_value: 'nowhere.example',
      });
      assert.deepEqual(body.result.status, 'unknown');
      assert.equal(body.result.violation.code, 'publisher_file_unknown');
      assert.equal('publisher_domain' in body.result, false);
      assert.equal(body.property, null);
      assert.deepEqual(body.publisher, {
        domain: null,
        file: 'unknown',
        authorizations: [],
        delegation_confirmed: false,
      });
      assert.deepEqual(body.operator, { declarations: [], confirmed_by: null, relationship_confirmed: false });
    });

    it('publisher_file_unknown: the registry has no adagents.json for the publisher_domain (unknown)', async () => {
      const body = await checked(server, {
        agent_url: agents.meridian,
        publisher_domain: 'nowhere.example',
        property_id: 'site',
      });
      assert.equal(body.result.status, 'unknown');
      assert.equal(body.result.violation.code, 'publisher_file_unknown');
      assert.equal(body.result.publisher_domain, 'nowhere.example');
      assert.equal(body.property, null);
      assert.deepEqual(body.publisher, {
        domain: 'nowhere.example',
        file: 'unknown',
        authorizations: [],
        delegation_confirmed: false,
      });
    });

    it('property_not_found: a known publisher whose file declares no such property_id (unauthorized)', async () => {
      const body = await checked(server, {
        agent_url: agents.meridian,
        publisher_domain: 'dailyplanet.example',
        property_id: 'sports',
      });
      assert.equal(body.result.status, 'unauthorized');
      assert.equal(body.result.violation.code, 'property_not_found');
      assert.match(body.result.violation.message, /"sports"/);
      assert.equal(body.result.publisher_domain, 'dailyplanet.example');
      assert.equal(body.property, null);
      assert.deepEqual(body.publisher, {
        domain: 'dailyplanet.example',
        file: 'found',
        authorizations: [],
        delegation_confirmed: false,
      });
    });
  });

  describe('comparison', () => {
    it('compares agent URLs in canonical form: scheme and host case, the default port and unreserved escapes name the same agent', async () => {
      for (const given of ['HTTPS://SALES.MERIDIAN.EXAMPLE:443/mcp', 'https://Sales.Meridian.Example/%6Dcp']) {
        const body = await checked(server, { agent_url: given, ...site, delegation_type: 'delegated' });
        assert.equal(body.result.status, 'authorized', given);
        assert.equal(body.result.sales_agent_url, given, 'the result names the agent as asked');
        assert.equal(body.agent_url_canonical, agents.meridian);
      }
    });

    it('another path or port on the same host is another agent', async () => {
      for (const other of [
        'https://sales.meridian.example/mcp/v2',
        'https://sales.meridian.example:8443/mcp',
        'http://sales.meridian.example/mcp',
      ]) {
        const body = await checked(server, { agent_url: other, ...site });
        assert.equal(body.result.violation?.code, 'agent_not_authorized', other);
      }
    });

    it('domain identifiers compare case-insensitively; other identifiers exactly', async () => {
      const body = await checked(server, {
        agent_url: agents.meridian,
        identifier_type: 'domain',
        identifier_value: 'DailyPlanet.EXAMPLE',
        delegation_type: 'delegated',
      });
      assert.equal(body.result.status, 'authorized');
      assert.equal(body.property.property_id, 'site');
      const bundle = await checked(server, {
        agent_url: agents.adnet,
        identifier_type: 'ios_bundle',
        identifier_value: 'COM.DAILYPLANET.APP',
      });
      assert.equal(bundle.result.violation.code, 'publisher_file_unknown');
    });
  });

  describe('bulk', () => {
    const cases: Array<{ check: Json; status: string; code?: string }> = [
      {
        check: {
          agent_url: agents.meridian,
          identifier: { type: 'domain', value: 'dailyplanet.example' },
          delegation_type: 'delegated',
        },
        status: 'authorized',
      },
      {
        check: { agent_url: agents.meridian, identifier: { type: 'ios_bundle', value: 'com.dailyplanet.app' } },
        status: 'unauthorized',
        code: 'relationship_mismatch',
      },
      {
        check: { agent_url: agents.meridian, identifier: { type: 'domain', value: 'stalenews.example' } },
        status: 'unknown',
        code: 'property_stale',
      },
      {
        check: { agent_url: agents.adnet, publisher_domain: 'dailyplanet.example', property_id: 'site' },
        status: 'unauthorized',
        code: 'agent_not_authorized',
      },
      {
        check: { agent_url: agents.meridian, identifier: { type: 'domain', value: 'nowhere.example' } },
        status: 'unknown',
        code: 'publisher_file_unknown',
      },
      {
        check: { agent_url: agents.meridian, publisher_domain: 'dailyplanet.example', property_id: 'sports' },
        status: 'unauthorized',
        code: 'property_not_found',
      },
      {
        check: {
          agent_url: agents.direct,
          identifier: { type: 'roku_store_id', value: 'dp-roku-1' },
          delegation_type: 'direct',
        },
        status: 'authorized',
      },
    ];

    it('answers mixed checks in order, each exactly as the single check answers it', async () => {
      const res = await bulk(cases.map((c) => c.check));
      assert.equal(res.status, 200);
      const { results } = await json(res);
      assert.equal(results.length, cases.length);
      for (const [i, { check: c, status, code }] of cases.entries()) {
        assertAuthorizationResult(results[i].result);
        assert.equal(results[i].result.status, status, `checks[${i}]`);
        assert.equal(results[i].result.violation?.code, code, `checks[${i}]`);
        const query: Record<string, string> = { agent_url: c.agent_url };
        if (c.identifier)
          Object.assign(query, { identifier_type: c.identifier.type, identifier_value: c.identifier.value });
        else Object.assign(query, { publisher_domain: c.publisher_domain, property_id: c.property_id });
        if (c.delegation_type) query['delegation_type'] = c.delegation_type;
        assert.deepEqual(results[i], await checked(server, query), `checks[${i}]`);
      }
    });

    it('takes 1000 checks and refuses 1001 or none', async () => {
      const one = cases[0]!.check;
      const full = await bulk(Array.from({ length: 1000 }, () => one));
      assert.equal(full.status, 200);
      const { results } = await json(full);
      assert.equal(results.length, 1000);
      assert.ok(results.every((r: Json) => r.result.status === 'authorized'));
      await assertRejected(await bulk(Array.from({ length: 1001 }, () => one)), {
        error: 'validation_failed',
        in: 'body',
        field: 'checks',
      });
      await assertRejected(await bulk([]), { error: 'validation_failed', in: 'body', field: 'checks' });
      await assertRejected(await postJson(`${server.url}/api/registry/validate/property-authorization`, {}), {
        error: 'validation_failed',
        in: 'body',
        field: 'checks',
      });
    });

    it('refuses the whole request for one malformed check, naming it by its index', async () => {
      const good = cases[0]!.check;
      const malformed: Array<[Json, string, string]> = [
        [{ agent_url: agents.meridian }, 'checks.1.publisher_domain', 'validation_failed'],
        [
          { agent_url: agents.meridian, publisher_domain: 'dailyplanet.example' },
          'checks.1.property_id',
          'validation_failed',
        ],
        [
          { agent_url: 'not a url', identifier: { type: 'domain', value: 'dailyplanet.example' } },
          'checks.1.agent_url',
          'validation_failed',
        ],
        [
          {
            agent_url: agents.meridian,
            identifier: { type: 'domain', value: 'dailyplanet.example' },
            publisher_domain: 'dailyplanet.example',
          },
          'checks.1.identifier',
          'validation_failed',
        ],
        [
          { agent_url: agents.meridian, identifier: { type: 'domain' } },
          'checks.1.identifier.value',
          'validation_failed',
        ],
        [
          {
            agent_url: agents.meridian,
            identifier: { type: 'domain', value: 'dailyplanet.example' },
            delegation_type: 'resold',
          },
          'checks.1.delegation_type',
          'validation_failed',
        ],
        [
          { agent_url: agents.meridian, identifier: { type: 'domain', value: 'dailyplanet.example' }, extra: true },
          'checks.1.extra',
          'validation_failed',
        ],
        [
          { agent_url: agents.meridian, publisher_domain: 'not a domain', property_id: 'site' },
          'checks.1.publisher_domain',
          'invalid_domain',
        ],
        [
          { agent_url: agents.meridian, identifier: { type: 'domain', value: 'daily\u0000planet.example' } },
          'checks.1.identifier.value',
          'validation_failed',
        ],
      ];
      for (const [item, field, error] of malformed) {
        await assertRejected(await bulk([good, item, good]), { error, in: 'body', field });
      }
    });
  });

  describe('bad input answers 400 with the catalogue body, never 500', () => {
    const base = { agent_url: agents.meridian, ...site };
    const without = (name: keyof typeof base) => Object.fromEntries(Object.entries(base).filter(([k]) => k !== name));
    const cases: Array<[string, Record<string, string>, string, string]> = [
      ['no agent_url', without('agent_url'), 'agent_url', 'validation_failed'],
      ['agent_url not a URL', { ...base, agent_url: 'not a url' }, 'agent_url', 'validation_failed'],
      [
        'agent_url without a scheme',
        { ...base, agent_url: 'sales.meridian.example/mcp' },
        'agent_url',
        'validation_failed',
      ],
      [
        'agent_url too long',
        { ...base, agent_url: `https://sales.meridian.example/${'a'.repeat(2048)}` },
        'agent_url',
        'validation_failed',
      ],
      ['identifier_type without its value', without('identifier_value'), 'identifier_value', 'validation_failed'],
      ['identifier_value without its type', without('identifier_type'), 'identifier_type', 'validation_failed'],
      [
        'identifier_type not an identifier type',
        { ...base, identifier_type: 'Domain Name' },
        'identifier_type',
        'validation_failed',
      ],
      ['no property at all', { agent_url: agents.meridian }, 'publisher_domain', 'validation_failed'],
      [
        'publisher_domain without property_id',
        { agent_url: agents.meridian, publisher_domain: 'dailyplanet.example' },
        'property_id',
        'validation_failed',
      ],
      [
        'property_id without publisher_domain',
        { agent_url: agents.meridian, property_id: 'site' },
        'publisher_domain',
        'validation_failed',
      ],
      [
        'both identifier and publisher_domain',
        { ...base, publisher_domain: 'dailyplanet.example', property_id: 'site' },
        'identifier_type',
        'validation_failed',
      ],
      [
        'delegation_type outside its enum',
        { ...base, delegation_type: 'resold' },
        'delegation_type',
        'validation_failed',
      ],
      [
        'NUL in a value',
        { ...base, identifier_value: 'daily\u0000planet.example' },
        'identifier_value',
        'validation_failed',
      ],
    ];
    for (const [title, query, field, error] of cases) {
      it(title, async () => {
        await assertRejected(await check(server, query), { error, in: 'querystring', field });
      });
    }

    it('a malformed publisher_domain is invalid_domain', async () => {
      for (const domain of ['not a domain', '127.0.0.1', 'dailyplanet.example/path', 'dailyplanet.example:8080']) {
        await assertRejected(
          await check(server, { agent_url: agents.meridian, publisher_domain: domain, property_id: 'site' }),
          { error: 'invalid_domain', in: 'querystring', field: 'publisher_domain' },
        );
      }
    });
  });
});
