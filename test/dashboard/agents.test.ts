import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { allAgentsShown } from '../../src/registry/agents/index.ts';
import { ManualClock } from '../support/clock.ts';
import { eachEngine } from '../support/engines.ts';
import { browse, proveOwnership, seedOrganization, seedUser } from '../support/identity.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { agentsPage, csrfOf, postAgentForm, signInAs } from './pages.ts';

/**
 * The dashboard's agent pages (issue 19, section 1): members see their organization's enrolled
 * agents, enroll on proven hosts, change and remove them, under the API's rules and the
 * dashboard's session and CSRF protections.
 */
eachEngine('dashboard agents', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  before(async () => {
    server = await startTestServer(engine, { deps: { clock } });
  });
  after(() => server.close());

  let n = 0;
  /** An organization with a signed-in member, proven on its own domain. */
  const signedInMember = async (role: 'member' | 'admin' = 'member') => {
    const org = await seedOrganization(server.db);
    const domain = `${org.slug}-${++n}.example`;
    await proveOwnership(server.db, org.slug, domain, clock.now());
    const user = await seedUser(server.db, { organization: org.slug, role });
    return { org, domain, jar: await signInAs(server.url, user) };
  };
  const enroll = (
    jar: Awaited<ReturnType<typeof signedInMember>>['jar'],
    org: string,
    fields: Record<string, string>,
  ) =>
    postAgentForm(server.url, jar, '', org, {
      type: 'sales',
      name: 'Sales agent',
      description: '',
      visibility: 'public',
      ...fields,
    });
  const agentsOf = (slug: string) => allAgentsShown(server.db, slug);
  const feedEvents = async (url: string) =>
    (
      await server.db.query<{ event_type: string }>(
        `select event_type from registry_events where entity_id = $1 order by event_id`,
        [url],
      )
    ).map((e) => e.event_type);

  it('enrolls an agent on a proven host, queues its first probe, and lists it with its state', async () => {
    const { org, domain, jar } = await signedInMember();
    const empty = await agentsPage(server.url, jar);
    assert.match(empty, /enrolled no agents yet/);
    assert.match(empty, /<strong aria-current="page">Agents<\/strong>/, 'the section is named in the navigation');
    assert.match(empty, new RegExp(`<a href="/dashboard/api-keys\\?org=${org.slug}">API keys</a>`));

    const url = `https://sales.${domain}/mcp`;
    const res = await enroll(jar, org.slug, {
      agent_url: url,
      name: 'Sales <desk>',
      description: 'Display & video',
      visibility: 'members_only',
    });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), `/dashboard/agents?org=${org.slug}`);
    const [agent, ...rest] = await agentsOf(org.slug);
    assert.equal(rest.length, 0);
    assert.deepEqual(
      [agent!.agent_url, agent!.type, agent!.name, agent!.description, agent!.visibility],
      [url, 'sales', 'Sales <desk>', 'Display & video', 'members_only'],
    );
    const [queued] = await server.db.query(`select next_probe_at from registry_agent_probes where agent_url = $1`, [
      url,
    ]);
    assert.ok(queued, 'the first probe is queued, as the API queues it');

    let page = await agentsPage(server.url, jar);
    const row = new RegExp(
      `<tr><td>Sales &#60;desk&#62;<br><code>${url.replaceAll('.', '\\.')}</code></td><td>sales</td><td>members_only</td><td><time datetime="${clock.now().toISOString()}">.*?</td><td>not probed yet</td><td>—</td><td>no</td>`,
    );
    assert.match(page, row, 'escaped name, URL, type, visibility, enrolled date and probing state');

    await server.db.query(
      `update registry_agent_probes set probed_at = $2, reachable = true, latency_ms = 42, compliance_status = 'passing', verified = true, verified_role = 'media-buy' where agent_url = $1`,
      [url, clock.now()],
    );
    page = await agentsPage(server.url, jar);
    assert.match(page, /<td>reachable \(42 ms\)<\/td><td>passing<\/td><td>yes \(media-buy\)<\/td>/);
  });

  it('refuses an unproven host with the proof error and how to prove it, keeping the form and writing nothing', async () => {
    const { org, jar } = await signedInMember();
    const res = await enroll(jar, org.slug, { agent_url: 'https://agent.unproven.example/a2a', name: 'Kept name' });
    assert.equal(res.status, 403);
    const html = await res.text();
    assert.match(
      html,
      new RegExp(
        `role="alert">${org.slug} cannot enroll an agent on agent\\.unproven\\.example: it has not proven control of agent\\.unproven\\.example \\(or unproven\\.example\\)`,
      ),
    );
    assert.match(html, /How to prove control of agent\.unproven\.example/);
    assert.match(html, /POST \/api\/ownership\/challenges<\/code> with <code>\{"domain": "agent\.unproven\.example"\}/);
    assert.match(html, /_ap-owner\.agent\.unproven\.example/);
    assert.match(html, new RegExp(`href="/dashboard/api-keys\\?org=${org.slug}"`));
    assert.match(html, /value="https:\/\/agent\.unproven\.example\/a2a"/, 'the URL typed is kept');
    assert.match(html, /value="Kept name"/);
    assert.deepEqual(await agentsOf(org.slug), []);
    assert.deepEqual(await feedEvents('https://agent.unproven.example/a2a'), []);
  });

  it('refuses bad fields with the reason, on the page, and writes nothing', async () => {
    const { org, domain, jar } = await signedInMember();
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ agent_url: 'not a url' }, /Invalid agent_url: not an absolute URL/],
      [{ agent_url: `https://${domain}/mcp`, type: 'wizard' }, /Choose the agent’s type/],
      [{ agent_url: `https://${domain}/mcp`, visibility: 'secret' }, /Choose who may see the agent/],
      [{ agent_url: `https://${domain}/mcp`, name: '   ' }, /Invalid name: 1 to 200 characters/],
      [
        { agent_url: `https://${domain}/mcp`, description: 'x'.repeat(2001) },
        /Invalid description: at most 2000 characters/,
      ],
    ];
    for (const [fields, reason] of cases) {
      const res = await enroll(jar, org.slug, fields);
      assert.equal(res.status, 400, JSON.stringify(fields).slice(0, 80));
      assert.match(await res.text(), reason);
    }
    assert.deepEqual(await agentsOf(org.slug), []);

    const url = `https://${domain}/mcp`;
    assert.equal((await enroll(jar, org.slug, { agent_url: url })).status, 303);
    const again = await enroll(jar, org.slug, { agent_url: url, name: 'Twice' });
    assert.equal(again.status, 409);
    assert.match(await again.text(), /is already enrolled/);
  });

  it('lists only the organization’s own agents, whatever their visibility', async () => {
    const mine = await signedInMember();
    const theirs = await signedInMember();
    await enroll(mine.jar, mine.org.slug, {
      agent_url: `https://a.${mine.domain}/mcp`,
      name: 'Mine private',
      visibility: 'private',
    });
    await enroll(theirs.jar, theirs.org.slug, { agent_url: `https://a.${theirs.domain}/mcp`, name: 'Theirs public' });
    await enroll(theirs.jar, theirs.org.slug, {
      agent_url: `https://b.${theirs.domain}/mcp`,
      name: 'Theirs private',
      visibility: 'private',
    });

    const page = await agentsPage(server.url, mine.jar);
    assert.match(page, /Mine private/);
    assert.doesNotMatch(page, /Theirs/);
    assert.ok(!page.includes(theirs.domain));
    const other = await browse(mine.jar, `${server.url}/dashboard/agents?org=${theirs.org.slug}`);
    assert.equal(other.status, 404);
    assert.ok(!(await other.text()).includes(theirs.domain));
    const manage = await browse(
      mine.jar,
      `${server.url}/dashboard/agents/manage?org=${theirs.org.slug}&agent_url=${encodeURIComponent(`https://a.${theirs.domain}/mcp`)}`,
    );
    assert.equal(manage.status, 404);
    const viaOwn = await browse(
      mine.jar,
      `${server.url}/dashboard/agents/manage?org=${mine.org.slug}&agent_url=${encodeURIComponent(`https://a.${theirs.domain}/mcp`)}`,
    );
    assert.equal(viaOwn.status, 404, 'another organization’s agent is not managed from one’s own either');
  });

  it('changes visibility, name and description; the feed follows the public catalog', async () => {
    const { org, domain, jar } = await signedInMember();
    const url = `https://change.${domain}/mcp`;
    await enroll(jar, org.slug, { agent_url: url, name: 'Before', description: 'Old words' });

    const manage = await browse(
      jar,
      `${server.url}/dashboard/agents/manage?org=${org.slug}&agent_url=${encodeURIComponent(url)}`,
    );
    assert.equal(manage.status, 200);
    const html = await manage.text();
    assert.match(html, /<option value="public" selected>/);
    assert.match(html, /value="Before"/);
    assert.match(html, />Old words<\/textarea>/);
    assert.match(html, /Probing: not probed yet/);

    const form = {
      agent_url: url,
      type: 'sales',
      name: 'After',
      description: '',
      visibility: 'private',
      csrf: csrfOf(html),
      org: org.slug,
    };
    const res = await browse(jar, `${server.url}/dashboard/agents/change`, { form });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), `/dashboard/agents?org=${org.slug}`);
    const [agent] = await agentsOf(org.slug);
    assert.deepEqual([agent!.name, agent!.description, agent!.visibility], ['After', null, 'private']);
    assert.deepEqual(
      await feedEvents(url),
      ['agent.profile_updated', 'agent.removed'],
      'leaving the public catalog is announced as a removal',
    );
    assert.match(await agentsPage(server.url, jar), /<td>After<br>.*?<td>private<\/td>/);

    const blank = await browse(jar, `${server.url}/dashboard/agents/change`, { form: { ...form, name: ' ' } });
    assert.equal(blank.status, 400);
    const shown = await blank.text();
    assert.match(shown, /Invalid name: 1 to 200 characters/);
    assert.match(shown, /<h1>After<\/h1>/, 'shown again on the agent’s page');
    assert.equal((await agentsOf(org.slug))[0]!.name, 'After');
  });

  it('removes an agent only once the removal is confirmed', async () => {
    const { org, domain, jar } = await signedInMember();
    const url = `https://remove.${domain}/mcp`;
    await enroll(jar, org.slug, { agent_url: url });

    const unconfirmed = await postAgentForm(server.url, jar, '/remove', org.slug, { agent_url: url });
    assert.equal(unconfirmed.status, 400);
    assert.match(await unconfirmed.text(), /Tick the box to confirm the removal; nothing was removed/);
    assert.equal((await agentsOf(org.slug)).length, 1);

    const removed = await postAgentForm(server.url, jar, '/remove', org.slug, { agent_url: url, confirm: 'yes' });
    assert.equal(removed.status, 303);
    assert.equal(removed.headers.get('location'), `/dashboard/agents?org=${org.slug}`);
    assert.deepEqual(await agentsOf(org.slug), []);
    assert.deepEqual(await feedEvents(url), ['agent.profile_updated', 'agent.removed']);
    assert.deepEqual(
      await server.db.query(`select 1 from registry_agent_probes where agent_url = $1`, [url]),
      [],
      'its probes go with it',
    );
  });

  it('lets no member of another organization change or remove an agent: 403, or 404 when it is private', async () => {
    const owner = await signedInMember();
    const intruder = await signedInMember('admin');
    const shown = `https://shown.${owner.domain}/mcp`;
    const hidden = `https://hidden.${owner.domain}/mcp`;
    await enroll(owner.jar, owner.org.slug, { agent_url: shown, name: 'Shown' });
    await enroll(owner.jar, owner.org.slug, { agent_url: hidden, name: 'Hidden', visibility: 'private' });
    const before = await agentsOf(owner.org.slug);

    const change = { type: 'sales', name: 'Hijacked', description: '', visibility: 'private' };
    for (const [url, status] of [
      [shown, 403],
      [hidden, 404],
    ] as const) {
      // Acting for their own organization: the service's owner check answers, as the API's does.
      const changed = await postAgentForm(server.url, intruder.jar, '/change', intruder.org.slug, {
        agent_url: url,
        ...change,
      });
      assert.equal(changed.status, status, `change ${url}`);
      const removed = await postAgentForm(server.url, intruder.jar, '/remove', intruder.org.slug, {
        agent_url: url,
        confirm: 'yes',
      });
      assert.equal(removed.status, status, `remove ${url}`);
      const text = await removed.text();
      assert.match(
        text,
        status === 403 ? /only it may change or remove it/ : /No agent .* is enrolled by your organization/,
      );
      // Naming the owner's organization instead: they are not a member of it.
      const csrf = csrfOf(await agentsPage(server.url, intruder.jar));
      for (const path of ['/change', '/remove']) {
        const res = await browse(intruder.jar, `${server.url}/dashboard/agents${path}`, {
          form: { csrf, org: owner.org.slug, agent_url: url, confirm: 'yes', ...change },
        });
        assert.equal(res.status, 403, `${path} naming the owner`);
      }
      const enrolled = await browse(intruder.jar, `${server.url}/dashboard/agents`, {
        form: { csrf, org: owner.org.slug, agent_url: `https://other.${owner.domain}/mcp`, ...change },
      });
      assert.equal(enrolled.status, 403);
    }
    assert.deepEqual(await agentsOf(owner.org.slug), before);
  });

  it('refuses forms without the session’s CSRF token, or without a session, and changes nothing', async () => {
    const { org, domain, jar } = await signedInMember();
    const url = `https://csrf.${domain}/mcp`;
    await enroll(jar, org.slug, { agent_url: url, name: 'Kept' });
    const before = await agentsOf(org.slug);
    const otherSession = csrfOf(await agentsPage(server.url, await signedInMember().then((m) => m.jar)));
    const fields = {
      org: org.slug,
      agent_url: url,
      type: 'sales',
      name: 'Forged',
      description: '',
      visibility: 'private',
      confirm: 'yes',
    };

    for (const csrf of [undefined, 'wrong', otherSession]) {
      for (const path of ['', '/change', '/remove']) {
        const form =
          csrf === undefined
            ? { ...fields, agent_url: path ? url : `https://new.${domain}/mcp` }
            : { ...fields, csrf, agent_url: path ? url : `https://new.${domain}/mcp` };
        const res = await browse(jar, `${server.url}/dashboard/agents${path}`, { form });
        assert.equal(res.status, 403, `${path || 'enroll'} with csrf ${csrf}`);
        assert.match(await res.text(), /did not come from this dashboard/);
      }
    }
    for (const path of ['', '/change', '/remove']) {
      const res = await fetch(`${server.url}/dashboard/agents${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      });
      assert.equal(res.status, 303);
      assert.equal(res.headers.get('location'), '/dashboard/login?next=/dashboard/agents');
    }
    const text = await fetch(`${server.url}/dashboard/agents/change`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'text/plain', cookie: jar.header() },
      body: new URLSearchParams({ ...fields, csrf: csrfOf(await agentsPage(server.url, jar)) }).toString(),
    });
    assert.equal(text.status, 415, 'a body that is no form is refused before anything is read');
    assert.deepEqual(await agentsOf(org.slug), before);
  });

  it('tells a user without an organization so, and sends the signed-out to sign in', async () => {
    const loner = await seedUser(server.db);
    const page = await agentsPage(server.url, await signInAs(server.url, loner));
    assert.match(page, /You belong to no organization yet/);
    assert.doesNotMatch(page, /Enroll agent/);
    const res = await fetch(`${server.url}/dashboard/agents?org=x`, { redirect: 'manual' });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/dashboard/login?next=/dashboard/agents%3Forg%3Dx');
  });
});
