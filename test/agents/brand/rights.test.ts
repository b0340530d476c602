import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { brandAgent, brandTenant, revokeGrant } from '../../../src/agents/brand/index.ts';
import { parseAllowList } from '../../../src/net/allow-list.ts';
import { SafeFetch } from '../../../src/net/safe-fetch.ts';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { mcpClient } from '../../support/agents.ts';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import type { Json } from '../../support/http.ts';
import { createApiKeyFor, seedOrganization } from '../../support/identity.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { TestReceiver } from '../../support/webhooks.ts';

const published: Record<string, string> = {
  get_rights: '/schemas/3.0.6/brand/get-rights-response.json',
  acquire_rights: '/schemas/3.0.6/brand/acquire-rights-response.json',
  update_rights: '/schemas/3.0.6/brand/update-rights-response.json',
  creative_approval: '/schemas/3.0.6/brand/creative-approval-response.json',
};

eachEngine('brand agent: rights licensing from the demo roster', (engine) => {
  const clock = new ManualClock();
  const receiver = new TestReceiver();
  let server: TestServer;
  let client: Client;

  /** A task's answer, checked against its published response (or, failing, the protocol's error). */
  const call = async (task: string, args: Json): Promise<{ isError: boolean; payload: Json }> => {
    const result = (await client.callTool({ name: task, arguments: args })) as Json;
    const { status, ...rest } = JSON.parse(result.content[0].text as string) as Json;
    const isError = result.isError === true;
    // A domain status (acquired, rejected…) is the payload's own; a task status is the envelope's.
    const payload = ['acquired', 'pending_approval', 'rejected', 'approved', 'pending_review'].includes(
      status as string,
    )
      ? { status, ...rest }
      : rest;
    const schema = isError ? '/schemas/3.0.6/core/error.json' : published[task]!;
    assert.deepEqual(validateSchema(schema, payload).errors, [], `${task} answers ${schema}`);
    return { isError, payload };
  };
  const acquire = (rights_id: string, pricing_option_id: string, campaign: Json, more: Json = {}) =>
    call('acquire_rights', {
      idempotency_key: randomUUID(),
      rights_id,
      pricing_option_id,
      buyer: { domain: 'acme-outdoor.example' },
      campaign: { description: 'Spring campaign', ...campaign },
      revocation_webhook: { url: 'https://buyer.example/revocations' },
      ...more,
    });
  const inDays = (days: number) => new Date(clock.now().getTime() + days * 86_400_000).toISOString().slice(0, 10);
  /** Runs the holders' review once, from now, and waits for it. */
  const review = async () => {
    const pass = server.app.agentPasses!.get('brand:rights-decisions')!;
    const done = pass.nextPass();
    pass.wake();
    await done;
  };

  before(async () => {
    await receiver.listen();
    // The brand agent alone, on a clock the test moves, its webhooks allowed to the receiver on
    // loopback; its holders' review runs when the test wakes it. Identity is not under test here.
    const fetcher = new SafeFetch({ allow: parseAllowList(new URL(receiver.url).host) });
    const tenant = brandAgent({
      base: () => server.url,
      brands: { record: async () => undefined, unlocks: async () => false },
      decisionsMs: 3_600_000,
    });
    server = await startTestServer(engine, { deps: { tenants: [tenant], clock, fetcher } });
    receiver.trust(server.url, clock);
    const org = await seedOrganization(server.db);
    client = await mcpClient(server.url, '/brand', {
      authorization: `Bearer ${await createApiKeyFor(server.db, org.slug)}`,
    });
  });
  after(async () => {
    await client?.close();
    await server?.close();
    await receiver.close();
  });

  it('finds offerings by what is asked, best match first, and says why others were left out', async () => {
    const { payload } = await call('get_rights', {
      query: 'trail runner to endorse our hiking gear',
      uses: ['endorsement', 'likeness'],
      countries: ['US'],
      include_excluded: true,
    });
    const rights = payload.rights as Json[];
    assert.equal(rights[0]!.rights_id, 'maya_okafor_endorsement');
    assert.deepEqual(rights[0]!.exclusivity_status, { available: true });
    assert.ok((rights[0]!.match_score as number) > ((rights[1]?.match_score as number) ?? 0));
    const excluded = payload.excluded as Json[];
    assert.ok(excluded.some((e) => e.name === 'Lumen “Sunrise” jingle' && /Not licensed for/.test(e.reason as string)));
    const inChina = await call('get_rights', {
      query: 'mascot',
      uses: ['likeness'],
      countries: ['CN'],
      include_excluded: true,
    });
    assert.ok(!(inChina.payload.rights as Json[]).some((r) => r.rights_id === 'volt_the_fox'));
    assert.ok((inChina.payload.excluded as Json[]).some((e) => e.name === 'Volt the Fox'));
  });

  it('acquires: terms, a generation credential and a rights constraint to embed', async () => {
    const { payload } = await acquire('volt_the_fox', 'volt_cpm', {
      uses: ['likeness', 'ai_generated_image'],
      countries: ['US', 'GB'],
      start_date: inDays(0),
      end_date: inDays(30),
    });
    assert.equal(payload.status, 'acquired');
    assert.match(payload.rights_id as string, /^rg_/);
    assert.deepEqual((payload.terms as Json).uses, ['likeness', 'ai_generated_image']);
    const [credential] = payload.generation_credentials as Json[];
    assert.equal(credential!.provider, 'stability');
    assert.match(credential!.rights_key as string, /^rk_/);
    const constraint = payload.rights_constraint as Json;
    assert.equal(constraint.rights_id, payload.rights_id);
    assert.deepEqual(constraint.rights_agent, { url: `${server.url}/brand/mcp`, id: 'brand' });
    assert.deepEqual([constraint.countries, constraint.excluded_countries], [['US', 'GB'], ['CN']]);
  });

  it('refuses what the terms do not allow, saying what would pass', async () => {
    const uses = await acquire('volt_the_fox', 'volt_cpm', { uses: ['voice'] });
    assert.equal(uses.payload.status, 'rejected');
    assert.deepEqual(uses.payload.suggestions, [
      'Choose volt_voice_quarter, which covers voice, likeness, commercial.',
    ]);
    const china = await acquire('volt_the_fox', 'volt_cpm', { uses: ['likeness'], countries: ['US', 'CN'] });
    assert.deepEqual([china.payload.status, china.payload.suggestions], ['rejected', ['Run in US only.']]);
    const late = await acquire('orbit_heritage_logos', 'orbit_logos_month', {
      uses: ['commercial'],
      end_date: inDays(60),
    });
    assert.equal(late.payload.status, 'rejected');
    assert.match((late.payload.suggestions as string[])[0]!, /^End the campaign by \d{4}-\d{2}-\d{2}\.$/);
  });

  it('sends the holder’s decision on a reviewed acquisition once, as a signed webhook', async () => {
    const hook = (name: string) => ({ push_notification_config: { url: `${receiver.url}/${name}` } });
    const granted = await acquire('lumen_sunrise_jingle', 'lumen_jingle_once', { uses: ['sync'] }, hook('granted'));
    assert.deepEqual([granted.payload.status, granted.payload.estimated_response_time], ['pending_approval', '5m']);
    const refused = await acquire(
      'lumen_sunrise_jingle',
      'lumen_jingle_once',
      { uses: ['sync'], description: 'A summer beer festival spot' },
      hook('refused'),
    );
    await review();
    assert.equal(receiver.events.length, 0, 'nothing is decided before the review time');
    clock.advance(5 * 60_000);
    await review();
    await receiver.until(() => receiver.events.length >= 2);
    await review();
    assert.equal(receiver.events.length, 2, 'one notice per decision');
    const byGrant = new Map(receiver.events.map((e) => [(e as Json).task_id as string, e as Json]));
    for (const event of byGrant.values()) {
      assert.deepEqual(validateSchema('/schemas/3.0.6/core/mcp-webhook-payload.json', event).errors, []);
      assert.deepEqual(validateSchema(published.acquire_rights!, event.result).errors, []);
    }
    const yes = byGrant.get(granted.payload.rights_id as string)!.result as Json;
    assert.equal(yes.status, 'acquired');
    assert.match((yes.generation_credentials as Json[])[0]!.rights_key as string, /^rk_/);
    const no = byGrant.get(refused.payload.rights_id as string)!.result as Json;
    assert.deepEqual([no.status, no.suggestions], ['rejected', undefined]);
    assert.match(no.reason as string, /campaigns about beer/);
  });

  it('extends, narrows, switches and pauses a grant, re-issuing its credential when its terms change', async () => {
    const { payload } = await acquire('volt_the_fox', 'volt_cpm', { uses: ['likeness'], end_date: inDays(30) });
    const rights_id = payload.rights_id as string;
    const key = (payload.generation_credentials as Json[])[0]!.rights_key;
    const update = (changes: Json) => call('update_rights', { idempotency_key: randomUUID(), rights_id, ...changes });
    const extended = await update({ end_date: inDays(60), impression_cap: 500_000 });
    assert.deepEqual(
      [(extended.payload.terms as Json).end_date, (extended.payload.terms as Json).impression_cap],
      [inDays(60), 500_000],
    );
    assert.notEqual((extended.payload.generation_credentials as Json[])[0]!.rights_key, key);
    assert.equal((extended.payload.rights_constraint as Json).impression_cap, 500_000);
    const shorter = await update({ end_date: inDays(10) });
    assert.deepEqual([shorter.payload.code, shorter.payload.field], ['INVALID_REQUEST', 'end_date']);
    const switched = await update({ pricing_option_id: 'volt_voice_quarter' });
    assert.deepEqual(
      [(switched.payload.terms as Json).amount, (switched.payload.terms as Json).period],
      [9_000, 'quarterly'],
    );
    const paused = await update({ paused: true });
    assert.equal(paused.payload.paused, true);
    assert.equal(paused.payload.generation_credentials, undefined, 'a pause alone re-issues nothing');
    const approval = await call('creative_approval', {
      idempotency_key: randomUUID(),
      rights_id,
      creative_url: 'https://buyer.example/c/1.png',
    });
    assert.deepEqual(
      [approval.payload.status, approval.payload.suggestions],
      ['rejected', ['Resume it with update_rights (paused: false).']],
    );
    const unknown = await update({ rights_id: 'rg_nothing' });
    assert.equal(unknown.payload.code, 'REFERENCE_NOT_FOUND');
  });

  it('approves creatives within a grant’s terms and refuses the others, saying what would pass', async () => {
    const { payload } = await acquire('maya_okafor_endorsement', 'maya_monthly', {
      uses: ['likeness', 'endorsement'],
      countries: ['US'],
      end_date: inDays(20),
    });
    const approve = (more: Json) =>
      call('creative_approval', {
        idempotency_key: randomUUID(),
        rights_id: payload.rights_id,
        creative_id: 'cr_1',
        creative_url: 'https://buyer.example/c/maya.png',
        ...more,
      });
    const yes = await approve({
      metadata: { uses: ['likeness'], countries: ['US'] },
      description: 'Maya on the ridge',
    });
    assert.equal(yes.payload.status, 'approved');
    assert.deepEqual(
      (yes.payload.conditions as string[])[0],
      'Disclose: Maya Okafor is a paid Northwind Outdoor ambassador.',
    );
    const voice = await approve({ metadata: { uses: ['voice'] } });
    assert.deepEqual(
      [voice.payload.status, voice.payload.suggestions],
      ['rejected', ['Use only likeness, endorsement.']],
    );
    const abroad = await approve({ metadata: { countries: ['CA'] } });
    assert.deepEqual([abroad.payload.status, abroad.payload.suggestions], ['rejected', ['Serve it in US only.']]);
    clock.advance(21 * 86_400_000);
    const late = await approve({});
    assert.deepEqual([late.payload.status, late.payload.reason], ['rejected', `The grant ended on ${inDays(-1)}.`]);
  });

  it('sends the holder’s revocation as a signed notice, and a revoked grant approves nothing more', async () => {
    const revocations = { revocation_webhook: { url: `${receiver.url}/revocations` } };
    const { payload } = await acquire(
      'dawn_patrol_photos',
      'dawn_patrol_cpm',
      { uses: ['editorial', 'commercial'] },
      revocations,
    );
    const rights_id = payload.rights_id as string;
    const approve = () =>
      call('creative_approval', {
        idempotency_key: randomUUID(),
        rights_id,
        creative_url: 'https://buyer.example/c/2.png',
      });
    assert.equal((await approve()).payload.status, 'approved');
    const before = receiver.events.length;
    const partial = await revokeGrant(server.db, brandTenant, {
      grantId: rights_id,
      reason: 'Editorial use withdrawn by the photographer',
      uses: ['editorial'],
      now: clock.now(),
    });
    assert.deepEqual([partial.status, partial.uses], ['acquired', ['commercial']]);
    await revokeGrant(server.db, brandTenant, { grantId: rights_id, reason: 'Licence ended early', now: clock.now() });
    server.app.webhookDeliverer!.wake();
    await receiver.until(() => receiver.events.length >= before + 2);
    const notices = receiver.events.slice(before) as Json[];
    for (const notice of notices)
      assert.deepEqual(validateSchema('/schemas/3.0.6/brand/revocation-notification.json', notice).errors, []);
    // Each notice is delivered on its own: in either order.
    assert.deepEqual(
      notices
        .map((n) => [n.rights_id, n.revoked_uses, n.reason])
        .sort((a, b) => String(a[2]).localeCompare(String(b[2]))),
      [
        [rights_id, ['editorial'], 'Editorial use withdrawn by the photographer'],
        [rights_id, undefined, 'Licence ended early'],
      ],
    );
    const refused = await approve();
    assert.deepEqual([refused.payload.status, refused.payload.reason], ['rejected', 'The grant is revoked.']);
    await assert.rejects(
      revokeGrant(server.db, brandTenant, { grantId: rights_id, reason: 'again', now: clock.now() }),
      /is revoked/,
    );
  });

  it('answers a request it cannot take as an error naming the field', async () => {
    const past = await acquire('volt_the_fox', 'volt_cpm', { uses: ['likeness'], end_date: '2020-01-01' });
    assert.deepEqual(
      [past.isError, past.payload.code, past.payload.field],
      [true, 'INVALID_REQUEST', 'campaign.end_date'],
    );
    const option = await acquire('volt_the_fox', 'nope', { uses: ['likeness'] });
    assert.deepEqual([option.payload.code, option.payload.field], ['INVALID_REQUEST', 'pricing_option_id']);
    const unknown = await acquire('nobody', 'nope', { uses: ['likeness'] });
    assert.deepEqual([unknown.payload.code, unknown.payload.field], ['REFERENCE_NOT_FOUND', 'rights_id']);
  });

  it('grants an exclusive offering once, however many ask at the same moment', async () => {
    const maya = async () =>
      (await call('get_rights', { query: 'Maya', uses: ['endorsement'], brand_id: 'northwind-outdoor.example' }))
        .payload.rights as Json[];
    // Asked before: what get_rights keeps in memory is not kept past the grant.
    assert.deepEqual((await maya())[0]!.exclusivity_status, { available: true });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        acquire('maya_okafor_endorsement', 'maya_monthly', {
          uses: ['likeness', 'endorsement'],
          countries: ['US'],
          end_date: inDays(30),
        }),
      ),
    );
    const statuses = answers.map((a) => a.payload.status);
    assert.equal(statuses.filter((s) => s === 'acquired').length, 1);
    assert.equal(statuses.filter((s) => s === 'rejected').length, 49);
    assert.deepEqual((await maya())[0]!.exclusivity_status, {
      available: false,
      existing_exclusives: ['An exclusive licence of these rights is in force.'],
    });
  });
});
