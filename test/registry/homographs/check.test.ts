import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { domainToASCII } from 'node:url';
import type { Database } from '../../../src/db/database.ts';
import { saveAuthoritative as saveBrand } from '../../../src/registry/brands/service.ts';
import { checkHomograph } from '../../../src/registry/homographs/check.ts';
import { parseDenyList } from '../../../src/registry/homographs/deny-list.ts';
import {
  backfillSkeletons,
  holdForReview,
  holdIfAmbiguous,
  recordSkeleton,
  recordSkeletons,
} from '../../../src/registry/homographs/service.ts';
import { domainSkeleton } from '../../../src/registry/homographs/skeleton.ts';
import { saveAuthoritative as saveProperty } from '../../../src/registry/properties/service.ts';
import { eachEngine } from '../../support/engines.ts';
import { submitter } from './fixtures.ts';

const denyList = parseDenyList(
  JSON.stringify([
    { name: 'PayPal', domains: ['paypal.com'] },
    { name: 'Epic', domains: ['epic.com'] },
  ]),
  { format: 'json' },
);
const cyrillicPaypal = domainToASCII('p\u0430ypal.com');

eachEngine('homograph checks', (engine) => {
  let db: Database;
  const brand = (domain: string, aliases: string[] = []) =>
    db.transaction(async (tx) => {
      await saveBrand(tx, {
        domain,
        brand_name: domain,
        brand_key: null,
        keller_type: null,
        house_domain: null,
        manifest: {},
        aliases,
      });
      await recordSkeletons(tx, [domain, ...aliases]);
    });
  const property = (domain: string) =>
    db.transaction(async (tx) => {
      await saveProperty(tx, domain, { authorized_agents: [], inventory: [], contact: null });
      await recordSkeleton(tx, domain);
    });

  before(async () => {
    db = await engine.openMigrated();
    await brand('acme.example', ['acme-alias.example']);
    await property('planet.example');
  });
  after(() => db.close());

  describe('against the deny list', () => {
    it('holds a look-alike of a deny-listed brand (Cyrillic а, 1 for l, other suffixes)', async () => {
      for (const domain of [cyrillicPaypal, 'paypa1.com', 'paypal.net', 'www.paypa1.co.uk']) {
        assert.deepEqual(
          await checkHomograph(db, denyList, domain),
          { verdict: 'review', reason: 'deny_list', similar_to: 'PayPal' },
          domain,
        );
      }
    });

    it('holds a whole-script look-alike (all-Cyrillic "еріс.com")', async () => {
      const domain = domainToASCII('\u0435\u0440\u0456\u0441.com');
      assert.deepEqual(await checkHomograph(db, denyList, domain), {
        verdict: 'review',
        reason: 'deny_list',
        similar_to: 'Epic',
      });
    });

    it('lets the brand’s own domain and its subdomains through', async () => {
      assert.deepEqual(await checkHomograph(db, denyList, 'paypal.com'), { verdict: 'ok' });
      assert.deepEqual(await checkHomograph(db, denyList, 'www.paypal.com'), { verdict: 'ok' });
    });

    it('lets the brand’s own domain through even when a look-alike was registered first', async () => {
      await brand('paypa1.com');
      assert.deepEqual(await checkHomograph(db, denyList, 'paypal.com'), { verdict: 'ok' });
    });
  });

  describe('against registered entries', () => {
    it('holds a look-alike of a registered brand domain', async () => {
      assert.deepEqual(await checkHomograph(db, denyList, 'acrne.example'), {
        verdict: 'review',
        reason: 'registered_brand',
        similar_to: 'acme.example',
      });
      assert.deepEqual(await checkHomograph(db, denyList, domainToASCII('\u0430cme.example')), {
        verdict: 'review',
        reason: 'registered_brand',
        similar_to: 'acme.example',
      });
    });

    it('holds a look-alike of a brand alias declared by a house', async () => {
      assert.deepEqual(await checkHomograph(db, denyList, 'acme-a1ias.example'), {
        verdict: 'review',
        reason: 'registered_brand',
        similar_to: 'acme-alias.example',
      });
    });

    it('holds a look-alike of a registered property domain', async () => {
      assert.deepEqual(await checkHomograph(db, denyList, 'p1anet.example'), {
        verdict: 'review',
        reason: 'registered_property',
        similar_to: 'planet.example',
      });
    });

    it('lets the same domain through (an update is no collision)', async () => {
      assert.deepEqual(await checkHomograph(db, denyList, 'acme.example'), { verdict: 'ok' });
      assert.deepEqual(await checkHomograph(db, denyList, 'planet.example'), { verdict: 'ok' });
    });

    it('lets an unrelated domain through, and a look-alike under another suffix', async () => {
      for (const domain of ['unrelated.example', 'acme.test', 'planets.example'])
        assert.deepEqual(await checkHomograph(db, denyList, domain), { verdict: 'ok' }, domain);
    });

    it('ignores skeleton rows whose entry is gone', async () => {
      await db.query(`insert into domain_skeletons (domain, skeleton, version) values ('gone.example', $1, 'x')`, [
        domainSkeleton('gone.example'),
      ]);
      assert.deepEqual(await checkHomograph(db, denyList, 'g0ne.example'), { verdict: 'ok' });
      await db.query(`delete from domain_skeletons where domain = 'gone.example'`);
    });
  });

  describe('approved reviews', () => {
    it('let later saves of an approved domain through', async () => {
      const domain = domainToASCII('p\u0430ypal.org');
      const review = await holdForReview(db, {
        kind: 'brand',
        domain,
        payload: {},
        principal: submitter,
        reason: 'deny_list',
        similar_to: 'PayPal',
      });
      assert.equal(
        (await checkHomograph(db, denyList, domain)).verdict,
        'review',
        'a pending review lets nothing through',
      );
      await db.query(
        `update homograph_reviews set status = 'approved', decided_by = 'test', decided_at = now() where id = $1`,
        [review.id],
      );
      assert.deepEqual(await checkHomograph(db, denyList, domain), { verdict: 'ok' });
    });
  });

  describe('holdIfAmbiguous', () => {
    it('holds an ambiguous save with its body and submitter, and answers the 202 body', async () => {
      const payload = { domain: 'paypa1.org', brand_name: 'Totally PayPal' };
      const held = await holdIfAmbiguous(db, denyList, {
        kind: 'brand',
        domain: 'paypa1.org',
        payload,
        principal: submitter,
      });
      assert.ok(held);
      assert.equal(held.status, 'held_for_review');
      assert.equal(held.reason, 'deny_list');
      assert.equal(held.similar_to, 'PayPal');
      assert.match(held.message, /paypa1\.org looks like the protected brand "PayPal"/);
      const [row] = await db.query<{
        payload: unknown;
        submitted_by: string;
        organization_id: string | null;
        status: string;
      }>('select payload, submitted_by, organization_id, status from homograph_reviews where id = $1', [
        held.review_id,
      ]);
      assert.deepEqual(row, { payload, submitted_by: submitter.displayName, organization_id: null, status: 'pending' });
    });

    it('holds nothing for an unambiguous save', async () => {
      const before = await db.query<{ n: number }>('select count(*)::int as n from homograph_reviews');
      assert.equal(
        await holdIfAmbiguous(db, denyList, {
          kind: 'property',
          domain: 'fine.example',
          payload: {},
          principal: submitter,
        }),
        undefined,
      );
      assert.deepEqual(await db.query<{ n: number }>('select count(*)::int as n from homograph_reviews'), before);
    });
  });

  describe('skeleton backfill', () => {
    it('fills domains saved without a skeleton, recomputes other versions, drops orphans, and is idempotent', async () => {
      // Saved as before migration 0008: no skeleton recorded.
      await db.transaction((tx) =>
        saveBrand(tx, {
          domain: 'legacy.example',
          brand_name: 'Legacy',
          brand_key: null,
          keller_type: null,
          house_domain: null,
          manifest: {},
          aliases: [],
        }),
      );
      await db.transaction((tx) =>
        saveProperty(tx, 'oldpub.example', { authorized_agents: [], inventory: [], contact: null }),
      );
      // Saves record skeletons now; forget these two, as a database from before migration 0008 would.
      await db.query(`delete from domain_skeletons where domain in ('legacy.example', 'oldpub.example')`);
      await db.query(`update domain_skeletons set skeleton = 'stale', version = 'old' where domain = 'planet.example'`);
      await db.query(
        `insert into domain_skeletons (domain, skeleton, version) values ('orphan.example', 'orphan', 'x')`,
      );
      assert.deepEqual(
        await checkHomograph(db, denyList, '1egacy.example'),
        { verdict: 'ok' },
        'not seen before the backfill',
      );

      assert.deepEqual(await backfillSkeletons(db, 2), { written: 3, removed: 1 });
      assert.deepEqual(await checkHomograph(db, denyList, '1egacy.example'), {
        verdict: 'review',
        reason: 'registered_brand',
        similar_to: 'legacy.example',
      });
      assert.deepEqual(await checkHomograph(db, denyList, '0ldpub.example'), {
        verdict: 'review',
        reason: 'registered_property',
        similar_to: 'oldpub.example',
      });
      assert.deepEqual(await checkHomograph(db, denyList, 'p1anet.example'), {
        verdict: 'review',
        reason: 'registered_property',
        similar_to: 'planet.example',
      });

      assert.deepEqual(await backfillSkeletons(db), { written: 0, removed: 0 });
      const [{ missing }] = (await db.query<{ missing: number }>(
        `select count(*)::int as missing from (select domain from brands union select domain from brand_aliases union select publisher_domain from properties) r
         where not exists (select 1 from domain_skeletons s where s.domain = r.domain)`,
      )) as [{ missing: number }];
      assert.equal(missing, 0);
    });
  });
});
