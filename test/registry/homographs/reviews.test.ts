import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { parse } from 'yaml';
import type { Principal } from '../../../src/auth/principal.ts';
import type { Queryable } from '../../../src/db/database.ts';
import { ApError } from '../../../src/protocol/errors.ts';
import {
  checkHomograph,
  emptyDenyList,
  holdForReview,
  type HeldSave,
  type ReviewAppliers,
} from '../../../src/registry/homographs/index.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { createApiKeyFor, seedOrganization } from '../../support/identity.ts';
import { postJson } from '../../support/requests.ts';
import { asAdmin, startTestServer, type TestServer } from '../../support/server.ts';

interface Applied {
  held: HeldSave;
  decider: Principal;
  /** The review's status as the applier's transaction saw it. */
  statusSeen: string;
  /** What checkHomograph answers for the domain inside the decision's transaction. */
  verdictSeen: string;
}

eachEngine('homograph review queue', (engine) => {
  let server: TestServer;
  let orgKey: string;
  let submitter: Principal;
  const applied: Applied[] = [];
  /** When set, the next applier call writes a row through tx and then throws this. */
  let failNext: ApError | undefined;

  const fakeApplier = (kind: string) => async (tx: Queryable, held: HeldSave, decider: Principal) => {
    assert.equal(held.kind, kind);
    const [row] = await tx.query<{ status: string }>('select status from homograph_reviews where id = $1', [
      held.review_id,
    ]);
    const verdict = await checkHomograph(tx, emptyDenyList, held.domain);
    if (failNext) {
      const err = failNext;
      failNext = undefined;
      await tx.query(
        `insert into domain_skeletons (domain, skeleton, version) values ('written-then-failed.example', 'x', 'x')`,
      );
      throw err;
    }
    applied.push({ held, decider, statusSeen: row!.status, verdictSeen: verdict.verdict });
  };
  const appliers: ReviewAppliers = { brand: fakeApplier('brand'), property: fakeApplier('property') };

  const hold = (
    domain: string,
    kind: 'brand' | 'property' = 'brand',
    payload: Record<string, unknown> = { domain, brand_name: 'Held' },
  ) =>
    holdForReview(server.db, {
      kind,
      domain,
      payload,
      principal: submitter,
      reason: 'registered_brand',
      similar_to: 'acme.example',
    });
  const list = (query = '', headers: Record<string, string> = asAdmin) =>
    fetch(`${server.url}/api/admin/reviews${query}`, { headers });
  const decide = (id: string, body: unknown, headers: Record<string, string> = asAdmin) =>
    postJson(`${server.url}/api/admin/reviews/${id}/decision`, body, headers);

  before(async () => {
    server = await startTestServer(engine, { deps: { reviewAppliers: appliers } });
    const org = await seedOrganization(server.db);
    orgKey = await createApiKeyFor(server.db, org.slug);
    submitter = {
      kind: 'api_key',
      subject: 'key-of-submitter',
      displayName: 'Submitter key',
      organization: { organizationId: org.id, slug: org.slug, role: 'member', apiTier: false, registryAdmin: false },
    };
  });
  after(() => server.close());
  beforeEach(() => {
    applied.length = 0;
    failNext = undefined;
  });

  describe('who may call', () => {
    it('answers 401 without a credential, with a Bearer challenge', async () => {
      for (const res of [await list('', {}), await decide(randomUUID(), { decision: 'reject' }, {})]) {
        assert.equal(res.status, 401);
        assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
        assert.equal((await json(res)).error, 'unauthorized');
      }
    });

    it('answers 403 to an ordinary organization’s key, and decides nothing', async () => {
      const review = await hold('forbidden.example');
      for (const res of [
        await list('', { authorization: `Bearer ${orgKey}` }),
        await decide(review.id, { decision: 'approve' }, { authorization: `Bearer ${orgKey}` }),
      ]) {
        assert.equal(res.status, 403);
        assert.equal((await json(res)).error, 'forbidden');
      }
      assert.equal(applied.length, 0);
      await decide(review.id, { decision: 'reject', note: 'cleanup' });
    });
  });

  describe('listing', () => {
    it('lists pending reviews newest first, with total, limit and offset', async () => {
      const ids: string[] = [];
      for (const domain of ['one.example', 'two.example', 'three.example']) ids.push((await hold(domain)).id);
      // Held a second apart, oldest first, rather than sleeping so the database's clock moves on.
      for (const [i, id] of ids.entries())
        await server.db.query(
          `update homograph_reviews set created_at = now() - make_interval(secs => $2) where id = $1`,
          [id, ids.length - i],
        );
      const res = await list();
      assert.equal(res.status, 200);
      const page = await json(res);
      assert.equal(page.total, 3);
      assert.equal(page.limit, 50);
      assert.equal(page.offset, 0);
      assert.deepEqual(
        page.reviews.map((r: Json) => r.id),
        [...ids].reverse(),
      );
      const first = page.reviews[0];
      assert.equal(first.domain, 'three.example');
      assert.equal(first.kind, 'brand');
      assert.deepEqual(first.payload, { domain: 'three.example', brand_name: 'Held' });
      assert.equal(first.organization_id, submitter.organization!.organizationId);
      assert.equal(first.submitted_by, 'Submitter key');
      assert.equal(first.source, 'save');
      assert.equal(first.reason, 'registered_brand');
      assert.equal(first.similar_to, 'acme.example');
      assert.equal(first.status, 'pending');
      assert.equal(first.decided_by, null);
      assert.equal(first.decided_at, null);
      assert.ok(!Number.isNaN(Date.parse(first.created_at)));
      assert.equal('submitter' in first, false, 'the stored principal is not shown');

      const second = await json(await list('?status=pending&limit=2&offset=2'));
      assert.equal(second.total, 3);
      assert.deepEqual(
        second.reviews.map((r: Json) => r.id),
        [ids[0]],
      );
      assert.equal((await json(await list('?status=approved'))).total, 0);
      for (const id of ids) await decide(id, { decision: 'reject' });
    });

    it('refuses an unknown status or a bad limit', async () => {
      for (const query of ['?status=held', '?limit=0', '?limit=201', '?offset=-1']) {
        const res = await list(query);
        assert.equal(res.status, 400, query);
        assert.equal((await json(res)).error, 'validation_failed', query);
      }
    });
  });

  describe('deciding', () => {
    it('approves: calls the applier once, inside the decision, and marks the review approved', async () => {
      const review = await hold('approve-me.example', 'property', {
        publisher_domain: 'approve-me.example',
        authorized_agents: [],
      });
      const res = await decide(review.id, { decision: 'approve', note: 'Known publisher' });
      assert.equal(res.status, 200);
      const body = await json(res);
      assert.equal(body.id, review.id);
      assert.equal(body.status, 'approved');
      assert.equal(body.note, 'Known publisher');
      assert.equal(body.decided_by, 'admin/AP_ADMIN_KEY', 'the deciding credential’s display name');
      assert.ok(!Number.isNaN(Date.parse(body.decided_at)));

      assert.equal(applied.length, 1);
      const [call] = applied;
      assert.deepEqual(call!.held, {
        review_id: review.id,
        kind: 'property',
        domain: 'approve-me.example',
        payload: { publisher_domain: 'approve-me.example', authorized_agents: [] },
        organization_id: submitter.organization!.organizationId,
        submitter,
      });
      assert.equal(call!.decider.organization?.registryAdmin, true);
      assert.equal(call!.statusSeen, 'approved');
      assert.equal(call!.verdictSeen, 'ok');

      const approved = await json(await list('?status=approved'));
      assert.deepEqual(
        approved.reviews.map((r: Json) => r.id),
        [review.id],
      );
    });

    it('rejects: records the decision without applying anything', async () => {
      const review = await hold('reject-me.example');
      const res = await decide(review.id, { decision: 'reject', note: 'Phishing' });
      assert.equal(res.status, 200);
      const body = await json(res);
      assert.equal(body.status, 'rejected');
      assert.equal(body.note, 'Phishing');
      assert.equal(applied.length, 0);
    });

    it('answers 409 conflict to a second decision, whichever it is', async () => {
      const review = await hold('twice.example');
      assert.equal((await decide(review.id, { decision: 'approve' })).status, 200);
      for (const decision of ['approve', 'reject']) {
        const res = await decide(review.id, { decision });
        assert.equal(res.status, 409, decision);
        const body = await json(res);
        assert.equal(body.error, 'conflict');
        assert.match(body.message, /already approved/);
      }
      assert.equal(applied.length, 1);
    });

    it('lets one of two simultaneous approvals win', async () => {
      const review = await hold('race.example');
      const statuses = (
        await Promise.all([decide(review.id, { decision: 'approve' }), decide(review.id, { decision: 'approve' })])
      )
        .map((r) => r.status)
        .sort();
      assert.deepEqual(statuses, [200, 409]);
      assert.equal(applied.length, 1);
    });

    it('answers 404 for an unknown review and 400 for an id that is not a UUID', async () => {
      const unknown = await decide(randomUUID(), { decision: 'approve' });
      assert.equal(unknown.status, 404);
      assert.equal((await json(unknown)).error, 'not_found');
      const malformed = await decide('not-a-uuid', { decision: 'approve' });
      assert.equal(malformed.status, 400);
      assert.equal((await json(malformed)).error, 'validation_failed');
    });

    it('refuses a malformed decision', async () => {
      const review = await hold('malformed.example');
      for (const body of [
        {},
        { decision: 'maybe' },
        { decision: 'approve', extra: 1 },
        { decision: 'approve', note: 'x'.repeat(2001) },
      ]) {
        const res = await decide(review.id, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal((await json(res)).error, 'validation_failed');
      }
      const text = await fetch(`${server.url}/api/admin/reviews/${review.id}/decision`, {
        method: 'POST',
        headers: { ...asAdmin, 'content-type': 'text/plain' },
        body: 'approve',
      });
      assert.equal(text.status, 415);
      assert.equal(applied.length, 0);
      await decide(review.id, { decision: 'reject' });
    });

    it('rolls the decision back when the applier fails, leaving the review pending', async () => {
      const review = await hold('authoritative.example');
      failNext = new ApError('authoritative_entry', 'authoritative.example is managed by its brand.json.');
      const res = await decide(review.id, { decision: 'approve' });
      assert.equal(res.status, 409);
      assert.equal((await json(res)).error, 'authoritative_entry');
      const [row] = await server.db.query<{ status: string; decided_at: Date | null }>(
        'select status, decided_at from homograph_reviews where id = $1',
        [review.id],
      );
      assert.deepEqual(row, { status: 'pending', decided_at: null });
      assert.deepEqual(
        await server.db.query(`select 1 from domain_skeletons where domain = 'written-then-failed.example'`),
        [],
        'the applier’s writes rolled back',
      );
      const reject = await decide(review.id, { decision: 'reject' });
      assert.equal(reject.status, 200);
    });
  });

  describe('OpenAPI', () => {
    it('documents both routes under Administration, with bearer security, in a valid document', async () => {
      const text = await (await fetch(`${server.url}/openapi/registry.yaml`)).text();
      const doc = parse(text) as {
        paths: Record<
          string,
          Record<string, { tags: string[]; security: unknown[]; responses: Record<string, unknown> }>
        >;
      };
      const listOp = doc.paths['/api/admin/reviews']?.get;
      const decideOp = doc.paths['/api/admin/reviews/{id}/decision']?.post;
      assert.ok(listOp && decideOp);
      for (const op of [listOp, decideOp]) {
        assert.deepEqual(op.tags, ['Administration']);
        assert.deepEqual(op.security, [{ bearer: [] }]);
      }
      assert.deepEqual(Object.keys(decideOp.responses).sort(), [
        '200',
        '400',
        '401',
        '403',
        '404',
        '409',
        '413',
        '415',
        '500',
      ]);
      const result = await new Validator().validate(text);
      assert.deepEqual(result.errors ?? [], []);
    });
  });
});
