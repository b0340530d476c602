import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { bearer, createApiKeyFor, proveOwnership, seedOrganization } from '../../support/identity.ts';
import { postJson } from '../../support/requests.ts';
import { asAdmin, startTestServer, type TestServer } from '../../support/server.ts';

const denyList = fileURLToPath(new URL('../../../config/brand-deny-list.example.json', import.meta.url));

/** The homograph cases, through the real save endpoints: each refused or held for review. */
eachEngine('look-alike saves', (engine) => {
  let server: TestServer;
  let acme: Record<string, string>;

  before(async () => {
    server = await startTestServer(engine, { env: { AP_BRAND_DENY_LIST: denyList } });
    await seedOrganization(server.db, { slug: 'acme' });
    acme = bearer(await createApiKeyFor(server.db, 'acme'));
    // A registered brand whose look-alikes must not slip in.
    assert.equal(
      (await postJson(`${server.url}/api/brands/save`, { domain: 'epic.com', brand_name: 'Epic' }, asAdmin)).status,
      201,
    );
  });
  after(() => server.close());

  const saveBrand = (domain: string, name = 'Look-alike') =>
    postJson(`${server.url}/api/brands/save`, { domain, brand_name: name }, acme);
  const registered = async (domain: string) =>
    (await fetch(`${server.url}/api/brands/resolve?domain=${encodeURIComponent(domain)}`)).status === 200;
  const expectStatus = async (res: Response, status: number, code?: string): Promise<Json> => {
    const body = await json(res);
    assert.equal(res.status, status, JSON.stringify(body));
    if (code) assert.equal(body.error, code);
    return body;
  };

  describe('refused', () => {
    it('a Cyrillic letter inside a Latin brand name', async () => {
      await expectStatus(await saveBrand('pаypal.com'), 400, 'domain_mixed_script');
    });
    it('a mixed-script label (Latin with Greek)', async () => {
      await expectStatus(await saveBrand('gοogle-login.com'), 400, 'domain_mixed_script');
    });
    it('fullwidth characters, which IDNA maps to the brand’s own domain: only its owner may save it', async () => {
      const body = await expectStatus(await saveBrand('ｐａｙｐａｌ.com'), 403, 'ownership_required');
      assert.match(body.message, /paypal\.com/);
    });
  });

  describe('held for review', () => {
    it('a deny-listed brand’s look-alike, once its submitter proved the domain; nothing is saved until an admin decides', async () => {
      await expectStatus(await saveBrand('paypa1.com'), 403, 'ownership_required');
      await proveOwnership(server.db, 'acme', 'paypa1.com');
      const held = await expectStatus(await saveBrand('paypa1.com'), 202);
      assert.equal(held.status, 'held_for_review');
      assert.equal(held.reason, 'deny_list');
      assert.equal(held.similar_to, 'PayPal');
      assert.equal(await registered('paypa1.com'), false);

      const queue = await json(await fetch(`${server.url}/api/admin/reviews`, { headers: asAdmin }));
      assert.ok(queue.reviews.some((r: Json) => r.id === held.review_id && r.domain === 'paypa1.com'));
      const rejected = await postJson(
        `${server.url}/api/admin/reviews/${held.review_id}/decision`,
        { decision: 'reject', note: 'phishing' },
        asAdmin,
      );
      assert.equal(rejected.status, 200);
      assert.equal(await registered('paypa1.com'), false);
    });

    it('the punycode form of an all-Cyrillic look-alike of a registered brand; approval saves it as its submitter', async () => {
      const lookalike = 'xn--e1awd7f.com'; // еріс.com, Cyrillic throughout
      await proveOwnership(server.db, 'acme', lookalike);
      const held = await expectStatus(await saveBrand(lookalike, 'Еріс'), 202);
      assert.equal(held.reason, 'registered_brand');
      assert.equal(held.similar_to, 'epic.com');
      const approved = await postJson(
        `${server.url}/api/admin/reviews/${held.review_id}/decision`,
        { decision: 'approve' },
        asAdmin,
      );
      assert.equal(approved.status, 200, JSON.stringify(await json(approved.clone())));
      assert.equal(await registered(lookalike), true);
      const history = await json(await fetch(`${server.url}/api/brands/history?domain=${lookalike}`));
      assert.match(history.revisions[0].editor_name, /^acme\//, 'saved as the submitter, not the admin');
      const again = await postJson(
        `${server.url}/api/admin/reviews/${held.review_id}/decision`,
        { decision: 'approve' },
        asAdmin,
      );
      assert.equal(again.status, 409);
      // Approved once: later saves by the proven organization go straight through.
      assert.equal((await saveBrand(lookalike, 'Еріс 2')).status, 200);
    });
  });

  it('lets an unrelated, proven domain through at once', async () => {
    await proveOwnership(server.db, 'acme', 'acme-widgets.com');
    assert.equal((await saveBrand('acme-widgets.com', 'Acme Widgets')).status, 201);
  });
});
