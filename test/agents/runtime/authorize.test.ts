import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Tenant } from '../../../src/agents/runtime/index.ts';
import { mcpClient } from '../../support/agents.ts';
import { eachEngine } from '../../support/engines.ts';
import type { Json } from '../../support/http.ts';
import { createApiKeyFor, seedOrganization } from '../../support/identity.ts';
import { asAdmin, startTestServer, type TestServer } from '../../support/server.ts';

// An agent only the registry operator's organization may call.
const operatorOnly: Tenant = {
  name: 'private',
  path: '/private',
  description: 'An agent for the operator only.',
  protocols: ['governance'],
  authorize: (principal) => principal.organization?.registryAdmin === true,
  tasks: [
    {
      name: 'ping',
      description: 'Answers pong.',
      input: { type: 'object' },
      mutates: false,
      handler: async () => ({ pong: true }),
    },
  ],
};

eachEngine('per-agent access', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(engine, { deps: { tenants: [operatorOnly] } });
  });
  after(() => server.close());

  it('runs tasks for the credentials the agent accepts and refuses others with AGENT_ACCESS_DENIED', async () => {
    const operator = await mcpClient(server.url, '/private', asAdmin);
    const member = await mcpClient(server.url, '/private', {
      authorization: `Bearer ${await createApiKeyFor(server.db, (await seedOrganization(server.db)).slug)}`,
    });
    try {
      const allowed = (await operator.callTool({ name: 'ping', arguments: {} })) as Json;
      assert.deepEqual(allowed.structuredContent, { status: 'completed', pong: true });
      const refused = (await member.callTool({ name: 'ping', arguments: {} })) as Json;
      assert.equal(refused.isError, true);
      assert.equal(JSON.parse(refused.content[0].text).code, 'AGENT_ACCESS_DENIED');
    } finally {
      await operator.close();
      await member.close();
    }
  });
});
