import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { entryOf, publishRegistryPolicy } from '../../../src/registry/policies/index.ts';
import { eachEngine } from '../../support/engines.ts';
import { readToEnd } from '../../support/feed.ts';
import { json, type Json } from '../../support/http.ts';
import { createApiKeyFor, seedOrganization } from '../../support/identity.ts';
import { postJson } from '../../support/requests.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

/** A community policy body as the registry client's savePolicy sends it, with `overrides`. */
export function policyBody(policy_id: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    policy_id,
    version: '1.0.0',
    name: `Policy ${policy_id}`,
    category: 'standard',
    enforcement: 'should',
    policy: 'Ads must not appear next to content depicting graphic violence.',
    ...overrides,
  };
}

eachEngine('policy saves', (engine) => {
  let server: TestServer;
  // Two organizations, each with a key, and a third key for the rate-limit test alone.
  let acme: Record<string, string>;
  let globex: Record<string, string>;
  let spender: Record<string, string>;
  const rows = async (table: string, id: string) =>
    (await server.db.query<{ n: number }>(`select count(*)::int as n from ${table} where policy_id = $1`, [id]))[0]!.n;
  const save = (body: unknown, headers: Record<string, string> = acme) =>
    postJson(`${server.url}/api/policies/save`, body, headers);
  const resolve = async (query: string) => json(await fetch(`${server.url}/api/policies/resolve?${query}`));
  const keyOf = async () => {
    const org = await seedOrganization(server.db);
    return { authorization: `Bearer ${await createApiKeyFor(server.db, org.slug)}` };
  };

  before(async () => {
    server = await startTestServer(engine, {
      env: {
        RATE_LIMIT_SAVES_PER_HOUR: '25',
        RATE_LIMIT_SAVES_PER_HOUR_PER_ORG: '1000',
        RATE_LIMIT_SAVES_PER_HOUR_PER_IP: '1000',
      },
    });
    [acme, globex, spender] = [await keyOf(), await keyOf(), await keyOf()];
    await server.db.transaction((tx) =>
      publishRegistryPolicy(
        tx,
        entryOf({ ...policyBody('uk_hfss'), category: 'regulation', enforcement: 'must', jurisdictions: ['GB'] }),
        'test:publisher',
      ),
    );
  });
  after(() => server.close());

  describe('creating and updating', () => {
    it('creates a community policy: 201 with policy_id, version and revision 1; resolve shows it pending', async () => {
      const extras = {
        description: 'No violence.',
        jurisdictions: ['US', 'CA'],
        requires_human_review: true,
        exemplars: { pass: [{ scenario: 'News about sport.', explanation: 'No violence.' }] },
        ext: { acme: { tier: 'gold', weights: [1, 2] } },
      };
      const res = await save(policyBody('acme_brand_safety', extras));
      assert.equal(res.status, 201);
      const body = await json(res);
      assert.deepEqual(body, {
        success: true,
        message: 'Policy acme_brand_safety created at version 1.0.0.',
        policy_id: 'acme_brand_safety',
        version: '1.0.0',
        revision_number: 1,
      });
      const policy = await resolve('policy_id=acme_brand_safety');
      assert.equal(policy.source_type, 'community');
      assert.equal(policy.review_status, 'pending');
      assert.deepEqual(policy.jurisdictions, ['US', 'CA']);
      assert.equal(policy.requires_human_review, true);
      assert.deepEqual(policy.exemplars, extras.exemplars);
      assert.deepEqual(policy.ext, extras.ext);
      assert.equal(policy.revision_number, 1);
    });

    it('updates it: 200 with the next revision number and the new version', async () => {
      await save(policyBody('acme_update'));
      const res = await save(policyBody('acme_update', { version: '1.1.0', name: 'Acme update, clarified' }));
      assert.equal(res.status, 200);
      assert.deepEqual(await json(res), {
        success: true,
        message: 'Policy acme_update updated to revision 2 (version 1.1.0).',
        policy_id: 'acme_update',
        version: '1.1.0',
        revision_number: 2,
      });
      assert.equal((await resolve('policy_id=acme_update')).name, 'Acme update, clarified');
      assert.equal(await rows('policy_revisions', 'acme_update'), 2);
    });

    it('accepts saving a version again with the content it was saved with, as a revision of its own', async () => {
      await save(policyBody('acme_again'));
      const res = await save(policyBody('acme_again'));
      assert.equal(res.status, 200);
      assert.equal((await json(res)).revision_number, 2);
    });

    it('gives 20 concurrent saves of one policy revisions 1..20, no gap, no duplicate, one creation', async () => {
      const key = await keyOf();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          save(policyBody('acme_busy', { version: `1.0.${i}`, name: `Busy ${i}` }), key),
        ),
      );
      assert.deepEqual(
        results.map((r) => r.status).filter((s) => s >= 300),
        [],
      );
      assert.equal(results.filter((r) => r.status === 201).length, 1);
      const numbers = await server.db.query<{ revision_number: number }>(
        'select revision_number from policy_revisions where policy_id = $1 order by 1',
        ['acme_busy'],
      );
      assert.deepEqual(
        numbers.map((r) => r.revision_number),
        Array.from({ length: 20 }, (_, i) => i + 1),
      );
    });

    it('lets only one of two organizations creating one new id at once have it; the other gets 403', async () => {
      const [a, b] = await Promise.all([
        save(policyBody('contested'), acme),
        save(policyBody('contested', { name: 'Globex take' }), globex),
      ]);
      assert.deepEqual([a.status, b.status].sort(), [201, 403]);
      assert.equal(await rows('policy_revisions', 'contested'), 1);
    });
  });

  describe('refused saves change nothing', () => {
    it('401 without a credential, with a challenge', async () => {
      const res = await save(policyBody('anonymous'), {});
      assert.equal(res.status, 401);
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
      assert.equal((await json(res)).error, 'unauthorized');
      assert.equal(await rows('policies', 'anonymous'), 0);
    });

    it('409 authoritative_entry for a policy the registry publishes, whoever asks', async () => {
      for (const headers of [acme, { authorization: 'Bearer test-admin-key-for-the-admin-organization' }]) {
        const res = await save(policyBody('uk_hfss', { version: '9.0.0', policy: 'Anything goes.' }), headers);
        assert.equal(res.status, 409);
        assert.equal((await json(res)).error, 'authoritative_entry');
      }
      const policy = await resolve('policy_id=uk_hfss');
      assert.equal(policy.source_type, 'registry');
      assert.equal(policy.version, '1.0.0');
      assert.equal(await rows('policy_revisions', 'uk_hfss'), 1);
    });

    it('403 forbidden for another organization’s policy; a registry admin may change it, and it keeps its owner', async () => {
      await save(policyBody('acme_owned'));
      const res = await save(policyBody('acme_owned', { version: '2.0.0', policy: 'Hijacked.' }), globex);
      assert.equal(res.status, 403);
      assert.equal((await json(res)).error, 'forbidden');
      assert.equal((await resolve('policy_id=acme_owned')).version, '1.0.0');
      const admin = await save(policyBody('acme_owned', { version: '1.0.1', guidance: 'Clarified by the registry.' }), {
        authorization: 'Bearer test-admin-key-for-the-admin-organization',
      });
      assert.equal(admin.status, 200);
      const owner = await save(policyBody('acme_owned', { version: '1.0.2' }), acme);
      assert.equal(owner.status, 200);
    });

    it('409 conflict for a version already saved with other content', async () => {
      await save(policyBody('acme_versions'));
      await save(policyBody('acme_versions', { version: '1.1.0', policy: 'Second text.' }));
      for (const version of ['1.0.0', '1.1.0']) {
        const res = await save(policyBody('acme_versions', { version, policy: 'Third text.' }));
        assert.equal(res.status, 409, version);
        const body = await json(res);
        assert.equal(body.error, 'conflict');
        assert.match(body.message, /new version/);
      }
      assert.equal(await rows('policy_revisions', 'acme_versions'), 2);
    });

    it('400 for a missing required field, an unknown field, and each bound', async () => {
      const long = (n: number) => 'x'.repeat(n);
      const cases: Array<[string, Record<string, unknown>]> = [
        ['no version', { version: undefined }],
        ['no category', { category: undefined }],
        ['no policy text', { policy: undefined }],
        ['unknown field', { source: 'registry' }],
        ['uppercase id', { policy_id: 'Bad_Id' }],
        ['colon in id', { policy_id: 'garm:violence' }],
        ['id too long', { policy_id: `a${long(100)}` }],
        ['version not semver', { version: 'v1' }],
        ['category unknown', { category: 'law' }],
        ['enforcement unknown', { enforcement: 'always' }],
        ['policy text over 5000', { policy: long(5001) }],
        ['description over 500', { description: long(501) }],
        ['name empty', { name: '' }],
        ['jurisdiction lowercase', { jurisdictions: ['gb'] }],
        ['jurisdictions repeated', { jurisdictions: ['GB', 'GB'] }],
        ['too many jurisdictions', { jurisdictions: Array.from({ length: 251 }, (_, i) => `J${i}`) }],
        ['region alias key lowercase', { region_aliases: { eu: ['DE'] } }],
        ['region alias member lowercase', { region_aliases: { EU: ['de'] } }],
        ['policy category with a space', { policy_categories: ['age restricted'] }],
        ['unknown channel', { channels: ['video'] }],
        ['unknown governance domain', { governance_domains: ['billing'] }],
        ['date not a date', { effective_date: '2026-13-01' }],
        ['sunset before effective', { effective_date: '2026-06-01', sunset_date: '2026-01-01' }],
        ['source_url not http', { source_url: 'ftp://example.com/law' }],
        ['exemplar without explanation', { exemplars: { pass: [{ scenario: 'A.' }] } }],
        ['exemplars with an unknown list', { exemplars: { maybe: [] } }],
        [
          '21 exemplars',
          { exemplars: { fail: Array.from({ length: 21 }, () => ({ scenario: 'A.', explanation: 'B.' })) } },
        ],
        ['ext with 33 members', { ext: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`v${i}`, i])) }],
      ];
      for (const [what, overrides] of cases) {
        const body = policyBody('refused_policy', overrides);
        for (const [k, v] of Object.entries(overrides)) if (v === undefined) delete body[k];
        const res = await save(body);
        assert.equal(res.status, 400, what);
        const error = await json(res);
        assert.equal(error.error, 'validation_failed', what);
        assert.ok(error.details?.length > 0, what);
      }
      for (const id of ['refused_policy', 'Bad_Id']) assert.equal(await rows('policies', id), 0);
    });

    it('415 for a body that is not JSON', async () => {
      const res = await fetch(`${server.url}/api/policies/save`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', ...acme },
        body: JSON.stringify(policyBody('plain_text')),
      });
      assert.equal(res.status, 415);
      assert.equal((await json(res)).error, 'unsupported_media_type');
      assert.equal(await rows('policies', 'plain_text'), 0);
    });

    it('413 for a body over the save’s 256 KB, however the fields are bounded', async () => {
      const res = await save(policyBody('too_big', { ext: { vendor: { blob: 'x'.repeat(300 * 1024) } } }));
      assert.equal(res.status, 413);
      assert.equal((await json(res)).error, 'payload_too_large');
      assert.equal(await rows('policies', 'too_big'), 0);
    });

    it('429 with retry_after past the saves’ budget, which brand and property saves share', async () => {
      for (let i = 0; i < 25; i++) assert.ok((await save(policyBody(`spend_${i}`), spender)).ok, `save ${i}`);
      const refused = await save(policyBody('spend_25'), spender);
      assert.equal(refused.status, 429);
      assert.ok((await json(refused)).retry_after > 0);
      assert.equal(await rows('policies', 'spend_25'), 0);
      const brand = await postJson(
        `${server.url}/api/brands/save`,
        { domain: 'spender.example', brand_name: 'Spender' },
        spender,
      );
      assert.equal(brand.status, 429);
    });
  });

  describe('history and the feed', () => {
    it('records who saved each revision, newest first', async () => {
      await save(policyBody('acme_history'));
      await save(policyBody('acme_history', { version: '1.1.0', policy: 'Revised.' }));
      const history = await json(await fetch(`${server.url}/api/policies/history?policy_id=acme_history`));
      assert.equal(history.total, 2);
      assert.deepEqual(
        history.revisions.map((r: Json) => [r.revision_number, r.version, r.edit_summary]),
        [
          [2, '1.1.0', 'Updated to version 1.1.0'],
          [1, '1.0.0', 'Created'],
        ],
      );
      assert.match(history.revisions[0].editor_name, /./);
      const [saved] = await server.db.query<{ saved_by: string; organization_id: string }>(
        'select saved_by, organization_id from policy_revisions where policy_id = $1 and revision_number = 1',
        ['acme_history'],
      );
      assert.match(saved!.saved_by, /^api:api_key:/);
      assert.ok(saved!.organization_id);
    });

    it('tells the feed policy.created then policy.updated with what changed and the whole policy, only to a policy.* subscription', async () => {
      await save(policyBody('acme_feed'));
      await save(policyBody('acme_feed', { version: '1.1.0', name: 'Acme feed, renamed', jurisdictions: ['FR'] }));
      const { events } = await readToEnd(server.url, { types: 'policy.*', limit: 1000 });
      const mine = events.filter((e) => e.entity_id === 'acme_feed');
      assert.deepEqual(
        mine.map((e) => e.event_type),
        ['policy.created', 'policy.updated'],
      );
      const [created, updated] = mine as [Json, Json];
      assert.equal(created.entity_type, 'policy');
      assert.match(created.actor, /^api:api_key:/);
      assert.deepEqual(
        { ...created.payload, policy: undefined },
        {
          policy_id: 'acme_feed',
          version: '1.0.0',
          source_type: 'community',
          review_status: 'pending',
          revision_number: 1,
          policy: undefined,
        },
      );
      assert.deepEqual(updated.payload.changed_fields, ['jurisdictions', 'name', 'version']);
      assert.deepEqual(updated.payload.policy, await resolve('policy_id=acme_feed'));
      // A subscription without types gets the published event types only.
      const { events: unfiltered } = await readToEnd(server.url, { limit: 1000 });
      assert.deepEqual(
        unfiltered.filter((e) => String(e.event_type).startsWith('policy.')),
        [],
      );
    });
  });
});
