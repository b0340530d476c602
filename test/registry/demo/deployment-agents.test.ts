import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../../src/db/database.ts';
import { saveAuthoritative } from '../../../src/registry/brands/index.ts';
import { enrollDeploymentAgents } from '../../../src/registry/demo/index.ts';
import type { OwnDeployment } from '../../../src/registry/agents/index.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { asAdmin, startTestServer, type TestServer } from '../../support/server.ts';

/** An outcome with its lists in URL order, to compare. */
const sorted = (outcome: Json) =>
  Object.fromEntries(Object.entries(outcome).map(([k, v]) => [k, Array.isArray(v) ? [...v].sort() : v]));
const count = async (db: Database, table: string, where = 'true') =>
  (await db.query<{ n: number }>(`select count(*)::int as n from ${table} where ${where}`))[0]!.n;

/** The demo enrolls the agents this deployment serves, under its demo organization, and the prober reaches them. */
eachEngine('the demo catalog of the deployment’s own agents', (engine) => {
  describe('on a first start with AP_DEMO and the test deployment', () => {
    let server: TestServer;
    let port: number;
    before(async () => {
      server = await startTestServer(engine, { env: { AP_DEMO: 'true', AGENTS: 'true', PROBE_WORKER: 'true' } });
      port = Number(new URL(server.url).port);
    });
    after(() => server.close());

    const list = async (query = '') => json(await fetch(`${server.url}/api/registry/agents${query}`));
    /** The deployment's agents as the catalog keeps them, in its (URL) order. */
    const served = (port: number) =>
      ['brand', 'creative', 'creative-builder', 'governance', 'sales', 'signals']
        .map((path) => `http://localhost:${port}/${path}/mcp`)
        .sort();

    it('lists the deployment’s agents in the public catalog, on localhost rather than the loopback address it listens on', async () => {
      const outcome = await server.app.demoAgents!;
      assert.deepEqual(sorted(outcome), {
        demo: true,
        enrolled: served(port).sort(),
        kept: [],
        removed: [],
        skipped: [],
      });
      const body = await list();
      assert.deepEqual(
        (body.agents as Json[]).map((a) => ({
          url: a.agent_url,
          type: a.type,
          visibility: a.visibility,
          operator: a.operator.slug,
        })),
        served(port).map((url) => ({
          url,
          type:
            (['sales', 'signals', 'governance', 'brand'] as const).find((t) => url.includes(`/${t}/`)) ?? 'creative',
          visibility: 'public',
          operator: 'ap-test-deployment',
        })),
      );
      assert.equal(body.agents.find((a: Json) => a.agent_url.includes('/sales/')).name, 'AP test deployment: sales');
      assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
    });

    it('probes them with the deployment’s test credential, over loopback: healthy and compliant', async () => {
      await server.app.demoAgents;
      const prober = server.app.agentProber!;
      // A pass that starts now, after the enrollments, probes all four (or finds them probed by the one enrollment woke).
      const pass = prober.nextPass();
      prober.wake();
      await pass;
      const body = await list('?health=true&compliance=true');
      assert.equal(body.agents.length, served(port).length);
      for (const agent of body.agents as Json[]) {
        assert.equal(agent.health.reachable, true, `${agent.agent_url}: ${JSON.stringify(agent.health)}`);
        const failed = (agent.compliance.checks as Json[]).filter((c) => !c.passed);
        assert.deepEqual(failed, [], agent.agent_url);
        assert.equal(agent.compliance.status, 'passing', agent.agent_url);
      }
      // The sales agent's wholesale catalog shows in its inventory profile: its products' delivery types and formats.
      await server.app.agentSearch.reload(server.db);
      const search = await json(
        await fetch(`${server.url}/api/registry/agents/search?limit=200`, { headers: asAdmin }),
      );
      const sales = (search.results as Json[]).find((r) => String(r.agent_url).includes('/sales/'));
      assert.ok(sales, JSON.stringify(search));
      assert.ok(sales.delivery_types.length > 0 && sales.format_ids.length > 0, JSON.stringify(sales));
      assert.ok(
        (search.results as Json[]).every((r) => !String(r.agent_url).includes('/signals/')),
        'only sales agents are searched',
      );
    });

    it('enrolls nothing twice: a second start keeps them, and one at another address replaces them', async () => {
      await server.app.demoAgents;
      const own: OwnDeployment = {
        served: () =>
          served(port).map((url) => ({
            url: url.replace('localhost', '127.0.0.1'),
            name: 'x',
            description: 'x',
            protocols: url.includes('/sales/')
              ? ['media_buy']
              : url.includes('/signals/')
                ? ['signals']
                : url.includes('/brand/')
                  ? ['brand']
                  : ['creative'],
          })),
        listening: () => ({ address: '127.0.0.1', port }),
        credential: undefined,
      };
      const events = await count(server.db, 'registry_events');
      assert.deepEqual(sorted(await enrollDeploymentAgents(server.db, server.app.agentEnrollment, own)), {
        demo: true,
        enrolled: [],
        kept: served(port).sort(),
        removed: [],
        skipped: [],
      });
      assert.equal(await count(server.db, 'registry_agents'), served(port).length);
      assert.equal(await count(server.db, 'registry_events'), events, 'no event either');

      const moved: OwnDeployment = {
        ...own,
        served: () => own.served().map((a) => ({ ...a, url: a.url.replace(`:${port}/`, ':1/') })),
      };
      const outcome = await enrollDeploymentAgents(server.db, server.app.agentEnrollment, moved);
      assert.deepEqual(sorted(outcome), {
        demo: true,
        enrolled: served(1).sort(),
        kept: [],
        removed: served(port).sort(),
        skipped: [],
      });
      // Back as they were, for nothing else to see the move.
      await enrollDeploymentAgents(server.db, server.app.agentEnrollment, own);
      assert.deepEqual(
        ((await list()).agents as Json[]).map((a) => a.agent_url),
        served(port),
      );
    });

    it('leaves out an agent on an IP address other than loopback', async () => {
      const lan: OwnDeployment = {
        served: () => [
          { url: 'http://192.0.2.7:3000/sales/mcp', name: 'x', description: 'x', protocols: ['media_buy'] },
        ],
        listening: () => undefined,
        credential: undefined,
      };
      const outcome = await enrollDeploymentAgents(server.db, server.app.agentEnrollment, lan);
      assert.ok(outcome.demo);
      assert.deepEqual(outcome.skipped, ['http://192.0.2.7:3000/sales/mcp']);
      assert.deepEqual(outcome.enrolled, []);
      await enrollDeploymentAgents(server.db, server.app.agentEnrollment, {
        served: () =>
          served(port).map((url) => ({
            url,
            name: 'x',
            description: 'x',
            protocols: url.includes('/sales/') ? ['media_buy'] : url.includes('/signals/') ? ['signals'] : ['creative'],
          })),
        listening: () => undefined,
        credential: undefined,
      });
    });
  });

  it('enrolls nothing in a registry the demo did not seed (one holding a brand, say)', async () => {
    const server = await startTestServer(engine, {
      env: { AP_DEMO: 'true', AGENTS: 'true' },
      // Before the server is ready, so before the demo would seed.
      extend: async (_app, db) => {
        await db.transaction((tx) =>
          saveAuthoritative(tx, {
            domain: 'acme.ap.test',
            brand_name: 'Acme',
            brand_key: null,
            keller_type: 'master',
            house_domain: 'acme.ap.test',
            manifest: { name: 'Acme' },
            aliases: [],
          }),
        );
      },
    });
    try {
      assert.deepEqual(await server.app.demoAgents, { demo: false });
      assert.equal(await count(server.db, 'registry_agents'), 0);
      assert.equal(await count(server.db, 'organizations', `slug = 'ap-test-deployment'`), 0);
    } finally {
      await server.close();
    }
  });
});
