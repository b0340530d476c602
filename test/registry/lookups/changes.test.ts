import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { markStale } from '../../../src/registry/graph/index.ts';
import {
  agents,
  dailyPlanet,
  meridianBrand,
  publishAdagents,
  publishBrandJson,
} from '../../support/authorization-world.ts';
import { eachEngine } from '../../support/engines.ts';
import { json } from '../../support/http.ts';
import type { TestServer } from '../../support/server.ts';
import { checked, settled, startWorld } from './world.ts';

const siteAsDelegated = {
  agent_url: agents.meridian,
  identifier_type: 'domain',
  identifier_value: 'dailyplanet.example',
  delegation_type: 'delegated',
};
const appAsDelegated = {
  agent_url: agents.meridian,
  identifier_type: 'ios_bundle',
  identifier_value: 'com.dailyplanet.app',
  delegation_type: 'delegated',
};

/** Meridian's brand.json with its declaration of the Daily Planet app changed to `relationship`. */
function meridianDeclaringApp(relationship: string): Record<string, unknown> {
  const document = structuredClone(meridianBrand);
  const app = document.brands[0]!.properties.find((p) => p.identifier === 'com.dailyplanet.app')!;
  app.relationship = relationship;
  return document;
}

/**
 * The index follows the change feed: each test changes the registry as the crawler would, waits
 * until the index has applied the change, and puts the world back as it found it.
 */
eachEngine('authorization answers follow registry changes', (engine) => {
  let server: TestServer;
  const meridianDomains = async () =>
    (await json(await fetch(`${server.url}/api/registry/lookup/agent/${encodeURIComponent(agents.meridian)}/domains`)))
      .domains;

  before(async () => {
    server = await startWorld(engine);
  });
  after(() => server.close());

  describe('the publisher side', () => {
    it('a publisher dropping an agent from its adagents.json revokes it at once; restoring it authorizes again', async () => {
      assert.equal((await checked(server, siteAsDelegated)).result.status, 'authorized');
      try {
        await publishAdagents(server.db, 'dailyplanet.example', dailyPlanet({ withMeridian: false }));
        await settled(server);
        const revoked = await checked(server, siteAsDelegated);
        assert.equal(revoked.result.status, 'unauthorized');
        assert.equal(revoked.result.violation.code, 'agent_not_authorized');
        assert.deepEqual(revoked.publisher.authorizations, []);
        assert.deepEqual(await meridianDomains(), ['stalenews.example']);
      } finally {
        await publishAdagents(server.db, 'dailyplanet.example', dailyPlanet());
        await settled(server);
      }
      assert.equal((await checked(server, siteAsDelegated)).result.status, 'authorized');
      assert.deepEqual(await meridianDomains(), ['dailyplanet.example', 'stalenews.example']);
    });

    it('a failed re-crawl makes the publisher’s answers unknown; a passing one brings them back', async () => {
      try {
        await server.db.transaction((tx) =>
          markStale(tx, 'dailyplanet.example', 'adagents.json answered HTTP 500', new Date()),
        );
        await settled(server);
        const stale = await checked(server, siteAsDelegated);
        assert.equal(stale.result.status, 'unknown');
        assert.equal(stale.result.violation.code, 'property_stale');
        assert.equal(stale.publisher.file, 'stale');
      } finally {
        await publishAdagents(server.db, 'dailyplanet.example', dailyPlanet());
        await settled(server);
      }
      const back = await checked(server, siteAsDelegated);
      assert.equal(back.result.status, 'authorized');
      assert.equal(back.property.status, 'active');
      assert.equal(back.publisher.file, 'found');
    });
  });

  describe('the operator side', () => {
    it('a brand.json change declaring the app delegated turns relationship_mismatch into authorized', async () => {
      const before = await checked(server, appAsDelegated);
      assert.equal(before.result.violation?.code, 'relationship_mismatch');
      try {
        await publishBrandJson(server.db, 'meridian.example', meridianDeclaringApp('delegated'));
        await settled(server);
        const after = await checked(server, appAsDelegated);
        assert.deepEqual(after.result, {
          status: 'authorized',
          publisher_domain: 'dailyplanet.example',
          sales_agent_url: agents.meridian,
        });
        assert.deepEqual(after.operator.confirmed_by, {
          operator_domain: 'meridian.example',
          brand_id: 'meridian',
          relationship: 'delegated',
          agents: [agents.meridian],
        });
        assert.equal(after.operator.relationship_confirmed, true);
      } finally {
        await publishBrandJson(server.db, 'meridian.example', meridianBrand);
        await settled(server);
      }
      assert.equal((await checked(server, appAsDelegated)).result.violation?.code, 'relationship_mismatch');
    });
  });
});
