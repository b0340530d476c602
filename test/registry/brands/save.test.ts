import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { saveAuthoritative } from '../../../src/registry/brands/service.ts';
import { eachEngine } from '../../support/engines.ts';
import { json } from '../../support/http.ts';
import { postJson } from '../../support/requests.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

eachEngine('brand saves, history and rollback', (engine) => {
  let server: TestServer;
  const revisions = async (domain: string) =>
    (
      await server.db.query<{ n: number }>(
        'select count(*)::int as n from brand_revisions r join brands b on b.id = r.brand_id where b.domain = $1',
        [domain],
      )
    )[0]!.n;

  before(async () => {
    server = await startTestServer(engine, {
      env: { RATE_LIMIT_SAVES_PER_HOUR: '1000', RATE_LIMIT_SAVES_PER_HOUR_PER_IP: '1000' },
    });
    await server.db.transaction((tx) =>
      saveAuthoritative(tx, {
        domain: 'nike.com',
        brand_name: 'Nike',
        brand_key: 'nike',
        keller_type: 'master',
        house_domain: 'nike.com',
        manifest: {},
        aliases: ['nike.co.uk'],
      }),
    );
  });
  after(() => server.close());
  const save = (body: unknown, headers?: Record<string, string>) =>
    postJson(`${server.url}/api/brands/save`, body, headers);

  describe('creating and updating', () => {
    it('creates a community brand: 201 without revision_number', async () => {
      const res = await save({
        domain: 'HTTPS://Acme.example/',
        brand_name: 'Acme',
        brand_manifest: { name: 'Acme', colors: [{ hex: '#ff0000', type: 'primary' }] },
      });
      assert.equal(res.status, 201);
      const body = await json(res);
      assert.deepEqual(Object.keys(body).sort(), ['domain', 'id', 'message', 'success']);
      assert.equal(body.success, true);
      assert.equal(body.domain, 'acme.example');
      assert.match(body.id, /^[0-9a-f-]{36}$/);
    });

    it('updates it: 200 with the next revision_number, source community', async () => {
      const res = await save({ domain: 'acme.example', brand_name: 'Acme Corp' });
      assert.equal(res.status, 200);
      const body = await json(res);
      assert.equal(body.revision_number, 2);
      const resolved = await json(await fetch(`${server.url}/api/brands/resolve?domain=acme.example`));
      assert.equal(resolved.brand_name, 'Acme Corp');
      assert.equal(resolved.source, 'community');
      assert.equal(resolved.canonical_id, body.id);
    });

    it('gives 50 concurrent saves of one domain revisions 1..50, no gap, no duplicate', async () => {
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => save({ domain: 'busy.example', brand_name: `Busy ${i}` })),
      );
      assert.deepEqual(
        results.map((r) => r.status).filter((s) => s >= 300),
        [],
      );
      const numbers = await server.db.query<{ revision_number: number }>(
        'select revision_number from brand_revisions r join brands b on b.id = r.brand_id where b.domain = $1 order by 1',
        ['busy.example'],
      );
      assert.deepEqual(
        numbers.map((r) => r.revision_number),
        Array.from({ length: 50 }, (_, i) => i + 1),
      );
      const created = results.filter((r) => r.status === 201);
      assert.equal(created.length, 1);
    });
  });

  describe('rejected saves change nothing', () => {
    it('answers 401 without a credential or with a wrong one', async () => {
      for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: 'Basic abc' }] as Record<
        string,
        string
      >[]) {
        const res = await save({ domain: 'nocred.example', brand_name: 'X' }, headers);
        assert.equal(res.status, 401);
        assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
        assert.equal((await json(res)).error, 'unauthorized');
      }
      assert.equal(await revisions('nocred.example'), 0);
    });

    it('answers 400 for a missing brand_name, an unknown field and an invalid domain', async () => {
      for (const [body, code] of [
        [{ domain: 'bad.example' }, 'validation_failed'],
        [{ domain: 'bad.example', brand_name: 'B', extra: 1 }, 'validation_failed'],
        [{ domain: 'bad.example:8080', brand_name: 'B' }, 'invalid_domain'],
        [{ domain: 'bad.example/path', brand_name: 'B' }, 'invalid_domain'],
        [{ domain: 'bad.example', brand_name: 'B', brand_manifest: { colors: [{ hex: 'red' }] } }, 'validation_failed'],
      ] as const) {
        const res = await save(body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal((await json(res)).error, code);
      }
      assert.equal(await revisions('bad.example'), 0);
    });

    it('answers 415 for a non-JSON body', async () => {
      const res = await fetch(`${server.url}/api/brands/save`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', authorization: 'Bearer test-operator-token' },
        body: '{"domain":"plain.example","brand_name":"P"}',
      });
      assert.equal(res.status, 415);
      assert.equal(await revisions('plain.example'), 0);
    });

    it('answers 409 for a brand managed by brand.json, and for a domain its house declares', async () => {
      for (const domain of ['nike.com', 'nike.co.uk']) {
        const res = await save({ domain, brand_name: 'Not Nike' });
        assert.equal(res.status, 409, domain);
        assert.equal((await json(res)).error, 'authoritative_entry');
      }
      assert.equal(await revisions('nike.com'), 1);
      assert.equal((await json(await fetch(`${server.url}/api/brands/resolve?domain=nike.com`))).brand_name, 'Nike');
    });
  });

  // Each test below saves its own brand, so it passes alone and in any order.
  const saveAll = async (domain: string, names: string[]) => {
    for (const brand_name of names) assert.ok((await save({ domain, brand_name })).ok, `${domain} ${brand_name}`);
  };

  describe('history', () => {
    it('lists revisions newest first with every field of the revision record', async () => {
      await saveAll('history.example', ['History', 'History Corp']);
      const body = await json(await fetch(`${server.url}/api/brands/history?domain=history.example`));
      assert.equal(body.domain, 'history.example');
      assert.equal(body.total, 2);
      assert.deepEqual(
        body.revisions.map((r: { revision_number: number }) => r.revision_number),
        [2, 1],
      );
      const [latest] = body.revisions;
      assert.deepEqual(Object.keys(latest).sort(), [
        'created_at',
        'edit_summary',
        'editor_name',
        'is_rollback',
        'revision_number',
        'source',
      ]);
      assert.equal(latest.editor_name, 'admin/AP_ADMIN_KEY');
      assert.equal(latest.source, 'community');
      assert.equal(latest.is_rollback, false);
      assert.match(latest.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    });

    it('pages with limit and offset, at most 100', async () => {
      await saveAll(
        'pages.example',
        Array.from({ length: 20 }, (_, i) => `Pages ${i}`),
      );
      const page = await json(await fetch(`${server.url}/api/brands/history?domain=pages.example&limit=10&offset=5`));
      assert.equal(page.total, 20);
      assert.deepEqual(
        page.revisions.map((r: { revision_number: number }) => r.revision_number),
        [15, 14, 13, 12, 11, 10, 9, 8, 7, 6],
      );
      const tooMany = await fetch(`${server.url}/api/brands/history?domain=pages.example&limit=101`);
      assert.equal(tooMany.status, 400);
    });

    it('answers 404 for an unknown domain and 400 without one', async () => {
      assert.equal((await fetch(`${server.url}/api/brands/history?domain=unknown.example`)).status, 404);
      assert.equal((await fetch(`${server.url}/api/brands/history`)).status, 400);
    });
  });

  describe('rollback', () => {
    it('restores an earlier revision as a new one marked is_rollback', async () => {
      await saveAll('restore.example', ['Restore', 'Restore Corp']);
      const res = await postJson(`${server.url}/api/brands/rollback`, { domain: 'restore.example', to_revision: 1 });
      assert.equal(res.status, 200);
      assert.equal((await json(res)).revision_number, 3);
      const resolved = await json(await fetch(`${server.url}/api/brands/resolve?domain=restore.example`));
      assert.equal(resolved.brand_name, 'Restore');
      const history = await json(await fetch(`${server.url}/api/brands/history?domain=restore.example&limit=1`));
      assert.equal(history.revisions[0].is_rollback, true);
      assert.equal(history.revisions[0].rolled_back_to, 1);
    });

    it('refuses what cannot be rolled back, changing nothing', async () => {
      await saveAll('refuse.example', ['Refuse 1', 'Refuse 2', 'Refuse 3']);
      const cases = [
        [{ domain: 'refuse.example', to_revision: 3 }, 400, 'invalid_request'],
        [{ domain: 'refuse.example', to_revision: 9 }, 400, 'invalid_request'],
        [{ domain: 'unknown.example', to_revision: 1 }, 404, 'not_found'],
        [{ domain: 'nike.com', to_revision: 1 }, 409, 'authoritative_entry'],
        [{ domain: 'refuse.example' }, 400, 'validation_failed'],
      ] as const;
      for (const [body, status, code] of cases) {
        const res = await postJson(`${server.url}/api/brands/rollback`, body);
        assert.equal(res.status, status, JSON.stringify(body));
        assert.equal((await json(res)).error, code);
      }
      assert.equal(
        (await postJson(`${server.url}/api/brands/rollback`, { domain: 'refuse.example', to_revision: 1 }, {})).status,
        401,
      );
      assert.equal(await revisions('refuse.example'), 3);
    });
  });
});

eachEngine('brand save limits', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(engine, { env: { RATE_LIMIT_SAVES_PER_HOUR: '2' } });
  });
  after(() => server.close());

  it('answers 429 with retry_after past the per-user hourly limit, writing nothing', async () => {
    for (let i = 0; i < 2; i++)
      assert.ok((await postJson(`${server.url}/api/brands/save`, { domain: `limit${i}.example`, brand_name: 'L' })).ok);
    const res = await postJson(`${server.url}/api/brands/save`, { domain: 'limit9.example', brand_name: 'L' });
    assert.equal(res.status, 429);
    const retryAfter = Number(res.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
    const body = await json(res);
    assert.equal(body.error, 'rate_limited');
    assert.equal(body.retry_after, retryAfter);
    assert.equal((await fetch(`${server.url}/api/brands/resolve?domain=limit9.example`)).status, 404);
  });
});
