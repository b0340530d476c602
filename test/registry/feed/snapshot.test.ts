import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { eachEngine } from '../../support/engines.ts';
import { readToEnd } from '../../support/feed.ts';
import { json, type Json } from '../../support/http.ts';
import { postJson } from '../../support/requests.ts';
import { asAdmin, startTestServer, type TestServer } from '../../support/server.ts';

eachEngine('bootstrapping a mirror from the snapshot', (engine) => {
  let server: TestServer;
  const snapshotPage = async (query: Record<string, string>, headers: Record<string, string> = asAdmin) => {
    const res = await fetch(`${server.url}/api/registry/snapshot?${new URLSearchParams(query)}`, { headers });
    return { status: res.status, body: await json(res) };
  };
  const save = async (domain: string, name: string) => {
    const res = await postJson(`${server.url}/api/properties/save`, {
      publisher_domain: domain,
      authorized_agents: [],
      properties: [{ type: 'website', name }],
    });
    assert.ok(res.status === 200 || res.status === 201, `${domain}: ${res.status} ${await res.text()}`);
  };
  const domain = (n: number) =>
    `mirror-${'abcdefghijklmnopqrstuvwxyz'[n % 26]}${'abcdefghijklmnopqrstuvwxyz'[Math.floor(n / 26)]}.example`;

  before(async () => {
    server = await startTestServer(engine, {
      env: {
        RATE_LIMIT_SAVES_PER_HOUR: '10000',
        RATE_LIMIT_SAVES_PER_HOUR_PER_IP: '10000',
        RATE_LIMIT_SAVES_PER_HOUR_PER_ORG: '10000',
      },
    });
    for (let n = 0; n < 25; n++) await save(domain(n), `Site ${n}`);
  });
  after(() => server.close());

  it('requires a credential and refuses a token it did not issue', async () => {
    assert.equal((await snapshotPage({}, {})).status, 401);
    const bad = await snapshotPage({ page_token: 'not-a-token' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, 'invalid_cursor');
  });

  it('400 invalid_cursor for a forged page token whose cursor or key is not of its kind', async () => {
    const uuid = '0190a5b2-0000-7000-8000-000000000000';
    const forge = (fields: Record<string, unknown>) => Buffer.from(JSON.stringify(fields)).toString('base64url');
    for (const fields of [
      { cursor: 'x', section: '0' },
      { cursor: uuid, section: '0', after: 'not-a-uuid' },
      { cursor: uuid, section: '2', after: "'; drop table x" },
      { cursor: uuid, section: '1', after: 'a\u0000b' },
      { cursor: uuid, section: '0', after: 7 },
      { cursor: uuid, section: '9' },
    ]) {
      const res = await snapshotPage({ page_token: forge(fields) });
      assert.equal(res.status, 400, JSON.stringify(fields));
      assert.equal(res.body.error, 'invalid_cursor', JSON.stringify(fields));
    }
    // The publishers section is keyed by domain, so any text is a key there.
    assert.equal(
      (await snapshotPage({ page_token: forge({ cursor: uuid, section: '1', after: 'zzz.example' }) })).status,
      200,
    );
  });

  it('ends identical to the registry after loading the pages and tailing the feed, with writes all along', async () => {
    const mirror = new Map<string, Json>();
    // Writes during the bootstrap: new entries and new revisions of loaded and not-yet-loaded ones,
    // five alongside each page after the first (so all after the cursor), racing that page's read.
    const writes = Array.from(
      { length: 30 },
      (_, n) => () => save(domain(n % 2 === 0 ? 25 + n : n), `Site ${n} revised`),
    );
    const write = async (count: number) => {
      for (const next of writes.splice(0, count)) await next();
    };

    let token: string | undefined;
    let cursor: string | null | undefined;
    do {
      const [{ status, body }] = await Promise.all([
        snapshotPage({ limit: '4', ...(token ? { page_token: token } : {}) }),
        cursor === undefined ? undefined : write(5),
      ]);
      assert.equal(status, 200, JSON.stringify(body));
      if (cursor === undefined) cursor = body.cursor;
      assert.equal(body.cursor, cursor, 'every page carries the cursor taken before the first');
      for (const item of body.items) mirror.set(`${item.entity_type}:${item.entity_id}`, item.data);
      token = body.next_page_token ?? undefined;
      assert.equal(body.has_more, token !== undefined);
    } while (token);
    assert.ok(writes.length < 30, 'the writes overlapped the bootstrap');
    await write(writes.length);

    const { events } = await readToEnd(server.url, {
      cursor: cursor ?? undefined,
      types: 'property.*,resolution.*',
      limit: 7,
    });
    // Every write committed after the cursor, so the tail carries each (a page may already show it):
    // the entry's property event and what resolve now answers for its domain.
    assert.ok(events.length >= 60, `the tail carried every write (${events.length} events)`);
    for (const event of events) {
      const state = event.entity_type === 'property' ? event.payload.entry : event.payload;
      mirror.set(`${event.entity_type}:${event.entity_id}`, state);
    }

    const source = new Map<string, Json>();
    const { body: all } = await snapshotPage({ limit: '1000' });
    assert.equal(all.has_more, false);
    for (const item of all.items) source.set(`${item.entity_type}:${item.entity_id}`, item.data);
    // Each community entry twice: as a property record and as what resolve answers for its domain.
    assert.equal(source.size, 2 * (25 + 15));
    const resolutions = [...source].filter(([key]) => key.startsWith('resolution:'));
    for (const [, data] of resolutions) assert.equal(data.kind, 'property');
    assert.deepEqual(mirror, source);
  });
});
