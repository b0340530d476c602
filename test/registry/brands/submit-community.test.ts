import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { saveAuthoritative } from '../../../src/registry/brands/service.ts';
import { checkHomograph, parseDenyList } from '../../../src/registry/homographs/index.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { bearer, createApiKeyFor, proveOwnership, seedOrganization } from '../../support/identity.ts';
import { postJson } from '../../support/requests.ts';
import { asAdmin, startTestServer, type TestServer } from '../../support/server.ts';

const denyList = fileURLToPath(new URL('../../../config/brand-deny-list.example.json', import.meta.url));
const PATH = '/api/brands/discovered/community';

/** Every answer of the legacy endpoint, errors included, says it is deprecated and names its successor. */
function assertDeprecated(res: Response): void {
  assert.match(res.headers.get('deprecation') ?? '', /^@\d+$/, 'Deprecation: an RFC 9745 date');
  assert.equal(res.headers.get('link'), '</api/brands/save>; rel="successor-version"');
}

eachEngine('legacy community brand submission', (engine) => {
  let server: TestServer;
  let acme: Record<string, string>;
  let acmeSlug: string;

  before(async () => {
    server = await startTestServer(engine, { env: { AP_BRAND_DENY_LIST: denyList } });
    acmeSlug = (await seedOrganization(server.db)).slug;
    acme = bearer(await createApiKeyFor(server.db, acmeSlug));
    await server.db.transaction((tx) =>
      saveAuthoritative(tx, {
        domain: 'globex.example',
        brand_name: 'Globex',
        brand_key: 'globex',
        keller_type: 'master',
        house_domain: 'globex.example',
        manifest: {},
        aliases: [],
      }),
    );
  });
  after(() => server.close());

  const submit = (body: unknown, headers: Record<string, string> = acme) =>
    postJson(`${server.url}${PATH}`, body, headers);
  const resolve = (domain: string) => fetch(`${server.url}/api/brands/resolve?domain=${encodeURIComponent(domain)}`);
  const reviews = async (status = 'pending') =>
    (await json(await fetch(`${server.url}/api/admin/reviews?status=${status}&limit=200`, { headers: asAdmin })))
      .reviews as Json[];
  const decide = (id: string, decision: 'approve' | 'reject') =>
    postJson(`${server.url}/api/admin/reviews/${id}/decision`, { decision }, asAdmin);
  const expectError = async (res: Response, status: number, code: string): Promise<Json> => {
    const body = await json(res);
    assert.equal(res.status, status, JSON.stringify(body));
    assert.equal(body.error, code);
    assert.equal(typeof body.message, 'string');
    return body;
  };

  describe('queued for review', () => {
    it('answers 202 with the review, deprecated, and saves nothing until an administrator approves', async () => {
      await proveOwnership(server.db, acmeSlug, 'acme-widgets.example');
      const manifest = { name: 'Acme Widgets', colors: [{ hex: '#0055aa', type: 'primary' }] };
      const res = await submit({
        domain: 'acme-widgets.example',
        brand_name: 'Acme Widgets',
        brand_manifest: manifest,
      });
      assert.equal(res.status, 202);
      assertDeprecated(res);
      const body = await json(res);
      assert.equal(body.status, 'pending_review');
      assert.match(body.review_id, /^[0-9a-f-]{36}$/);
      assert.equal(body.domain, 'acme-widgets.example');
      assert.equal(body.reason, null);
      assert.equal(body.similar_to, null);
      assert.equal(body.deprecated, true);
      assert.deepEqual(body.successor, { method: 'POST', path: '/api/brands/save' });
      assert.match(body.message, /deprecated.*POST \/api\/brands\/save/);
      assert.equal((await resolve('acme-widgets.example')).status, 404, 'nothing saved yet');

      const queued = (await reviews()).find((r) => r.id === body.review_id);
      assert.ok(queued, 'in the admin queue');
      assert.equal(queued.source, 'community_submission');
      assert.equal(queued.kind, 'brand');
      assert.equal(queued.reason, null);
      assert.deepEqual(queued.payload, {
        domain: 'acme-widgets.example',
        brand_name: 'Acme Widgets',
        brand_manifest: manifest,
      });

      const approved = await decide(body.review_id, 'approve');
      assert.equal(approved.status, 200, JSON.stringify(await json(approved.clone())));
      const resolved = await json(await resolve('acme-widgets.example'));
      assert.equal(resolved.brand_name, 'Acme Widgets');
      assert.equal(resolved.source, 'community');
      const history = await json(await fetch(`${server.url}/api/brands/history?domain=acme-widgets.example`));
      assert.equal(history.total, 1);
      assert.match(
        history.revisions[0].editor_name,
        new RegExp(`^${acmeSlug}/`),
        'saved as the submitter, not the administrator',
      );
    });

    it('a rejected submission leaves the registry as it was', async () => {
      await proveOwnership(server.db, acmeSlug, 'rejected.example');
      const body = await json(await submit({ domain: 'rejected.example', brand_name: 'Rejected' }));
      assert.equal((await decide(body.review_id, 'reject')).status, 200);
      assert.equal((await resolve('rejected.example')).status, 404);
    });

    it('normalizes the domain as saves do (protocol, case, trailing dot, IDNA 2008)', async () => {
      await proveOwnership(server.db, acmeSlug, 'xn--bcher-kva.example');
      const res = await submit({ domain: 'HTTPS://Bücher.Example./', brand_name: 'Bücher' });
      assert.equal(res.status, 202);
      const body = await json(res);
      assert.equal(body.domain, 'xn--bcher-kva.example');
      assert.equal((await reviews()).find((r) => r.id === body.review_id)?.domain, 'xn--bcher-kva.example');
    });

    it('a look-alike of a protected brand is queued with its reason, for the administrator to see', async () => {
      await proveOwnership(server.db, acmeSlug, 'paypa1.com');
      const res = await submit({ domain: 'paypa1.com', brand_name: 'Paypa1' });
      assert.equal(res.status, 202);
      const body = await json(res);
      assert.equal(body.reason, 'deny_list');
      assert.equal(body.similar_to, 'PayPal');
      assert.match(body.message, /PayPal/);
      assert.equal((await reviews()).find((r) => r.id === body.review_id)?.reason, 'deny_list');
    });

    it('approving a submission that looked like nothing does not vouch for the domain when the deny list later names a look-alike', async () => {
      await proveOwnership(server.db, acmeSlug, 'c0ntoso.example');
      const queued = await json(await submit({ domain: 'c0ntoso.example', brand_name: 'C0ntoso' }));
      assert.equal(queued.reason, null);
      assert.equal((await decide(queued.review_id, 'approve')).status, 200);
      // A held save's approval lets the domain through for good; this one judged no look-alike.
      const grown = parseDenyList('[{"name": "Contoso", "domains": ["contoso.com"]}]', { format: 'json' });
      assert.deepEqual(await checkHomograph(server.db, grown, 'c0ntoso.example'), {
        verdict: 'review',
        reason: 'deny_list',
        similar_to: 'Contoso',
      });
    });
  });

  describe('refused, queueing nothing', () => {
    const queueSize = async () => (await reviews()).length;

    it('401 without a credential, still marked deprecated', async () => {
      const res = await submit({ domain: 'acme.example', brand_name: 'Acme' }, {});
      await expectError(res, 401, 'unauthorized');
      assertDeprecated(res);
    });

    it('403 ownership_required before the organization proved the domain', async () => {
      const before = await queueSize();
      const res = await submit({ domain: 'unproven.example', brand_name: 'Unproven' });
      const body = await expectError(res, 403, 'ownership_required');
      assert.match(body.message, /unproven\.example/);
      assertDeprecated(res);
      assert.equal(await queueSize(), before);
    });

    it('409 authoritative_entry for a brand its brand.json manages', async () => {
      await proveOwnership(server.db, acmeSlug, 'globex.example');
      const before = await queueSize();
      await expectError(
        await submit({ domain: 'globex.example', brand_name: 'Not Globex' }),
        409,
        'authoritative_entry',
      );
      assert.equal(await queueSize(), before);
    });

    it('400 with the catalogue body for bad input', async () => {
      const before = await queueSize();
      const cases: Array<[unknown, string, string?]> = [
        [{ brand_name: 'No domain' }, 'validation_failed', 'domain'],
        [{ domain: 'nameless.example' }, 'validation_failed', 'brand_name'],
        [{ domain: 'extra.example', brand_name: 'Extra', unknown: 1 }, 'validation_failed'],
        [
          { domain: 'colors.example', brand_name: 'Colors', brand_manifest: { colors: [{ hex: 'blue' }] } },
          'validation_failed',
          'brand_manifest.colors.0.hex',
        ],
        [{ domain: 'not a domain', brand_name: 'Bad' }, 'invalid_domain'],
        [{ domain: '10.0.0.1', brand_name: 'An address' }, 'invalid_domain'],
        [{ domain: 'pаypal.com', brand_name: 'Mixed' }, 'domain_mixed_script'],
      ];
      for (const [body, code, field] of cases) {
        const res = await submit(body);
        const answer = await expectError(res, 400, code);
        assertDeprecated(res);
        if (field) assert.equal(answer.details?.[0]?.field, field, JSON.stringify(answer));
      }
      const wrongType = await fetch(`${server.url}${PATH}`, {
        method: 'POST',
        headers: { ...acme, 'content-type': 'text/plain' },
        body: 'domain=x',
      });
      await expectError(wrongType, 415, 'unsupported_media_type');
      assert.equal(await queueSize(), before);
    });
  });
});

eachEngine('legacy community brand submission limits', (engine) => {
  let server: TestServer;
  let first: Record<string, string>;
  let second: Record<string, string>;

  before(async () => {
    // The saves' limits, one budget with them: 2 per key, 3 per organization.
    server = await startTestServer(engine, {
      env: { RATE_LIMIT_SAVES_PER_HOUR: '2', RATE_LIMIT_SAVES_PER_HOUR_PER_ORG: '3' },
    });
    const { slug } = await seedOrganization(server.db);
    first = bearer(await createApiKeyFor(server.db, slug));
    second = bearer(await createApiKeyFor(server.db, slug));
    for (const domain of ['one.example', 'two.example', 'three.example', 'four.example'])
      await proveOwnership(server.db, slug, domain);
  });
  after(() => server.close());

  const submit = (domain: string, headers: Record<string, string>) =>
    postJson(`${server.url}${PATH}`, { domain, brand_name: 'Limited' }, headers);
  const expectLimited = async (res: Response) => {
    assert.equal(res.status, 429);
    assertDeprecated(res);
    const retryAfter = Number(res.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
    const body = await json(res);
    assert.equal(body.error, 'rate_limited');
    assert.equal(body.retry_after, retryAfter);
  };

  it('shares the per-key budget with saves: a save and a submission use it up', async () => {
    assert.equal(
      (await postJson(`${server.url}/api/brands/save`, { domain: 'one.example', brand_name: 'Saved' }, first)).status,
      201,
    );
    assert.equal((await submit('two.example', first)).status, 202);
    await expectLimited(await submit('three.example', first));
  });

  it('and the per-organization budget: another key of the organization gets what is left', async () => {
    assert.equal((await submit('three.example', second)).status, 202);
    await expectLimited(await submit('four.example', second));
    const [{ n }] = (await server.db.query<{ n: number }>(`select count(*)::int as n from homograph_reviews`)) as [
      { n: number },
    ];
    assert.equal(n, 2, 'only the accepted submissions were queued');
  });
});
