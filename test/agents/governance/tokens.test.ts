import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GovernanceUnavailableError, IssuerKeys, verifyGovernanceToken } from '../../../src/agents/governance/index.ts';
import { parseAllowList } from '../../../src/net/allow-list.ts';
import { SafeFetch } from '../../../src/net/safe-fetch.ts';
import { ManualClock } from '../../support/clock.ts';
import { engines } from '../../support/engines.ts';
import type { TestServer } from '../../support/server.ts';
import { idempotent, organizationCaller, plan, startGovernance, type Caller } from './harness.ts';

const seller = 'https://seller.example/mcp';

describe('a seller verifying governance approvals offline', () => {
  const clock = new ManualClock();
  let server: TestServer;
  let buyer: Caller;
  let fetcher: SafeFetch;
  let requests = 0;
  const issuer = () => `${server.url}/governance/mcp`;

  before(async () => {
    server = await startGovernance(engines[0]!, clock);
    buyer = await organizationCaller(server);
    fetcher = new SafeFetch({ allow: parseAllowList(new URL(server.url).host) });
    const counting = fetcher.fetch.bind(fetcher);
    fetcher.fetch = (url, init) => {
      requests++;
      return counting(url, init);
    };
  });
  after(async () => {
    await buyer?.client.close();
    await fetcher?.close();
    await server?.close();
  });

  async function approval(): Promise<string> {
    const p = plan();
    await buyer.call('sync_plans', idempotent({ plans: [p] }));
    const answer = await buyer.call('check_governance', {
      plan_id: p.plan_id,
      caller: 'https://buyer.example',
      tool: 'create_media_buy',
      payload: { budget: 1_000, seller_agent_url: seller },
    });
    return answer.governance_context as string;
  }

  it('reads the issuer’s key set once, through the SSRF-safe client, and verifies every token with it', async () => {
    const keys = new IssuerKeys(fetcher, clock);
    for (let i = 0; i < 3; i++) {
      const token = await approval();
      const kid = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).kid as string;
      const claims = await verifyGovernanceToken(token, {
        keys: await keys.keysOf(issuer(), kid),
        issuer: issuer(),
        audience: seller,
        phases: ['intent'],
        now: clock.now(),
      });
      assert.equal(claims.phase, 'intent');
    }
    assert.equal(requests, 1, 'one fetch of the key set for three tokens');
    // An unknown kid fetches again, but not more than every 30 seconds whatever tokens name.
    await keys.keysOf(issuer(), 'made-up-kid');
    await keys.keysOf(issuer(), 'another-made-up-kid');
    assert.equal(requests, 1, 'within 30 s of the last fetch');
    clock.advance(31_000);
    await keys.keysOf(issuer(), 'made-up-kid');
    assert.equal(requests, 2);
  });

  it('says the governance agent is unavailable when its keys cannot be read, and refuses private hosts', async () => {
    const keys = new IssuerKeys(fetcher, clock);
    await assert.rejects(keys.keysOf('http://127.0.0.1:9/governance/mcp', undefined), GovernanceUnavailableError);
    const strict = new IssuerKeys(new SafeFetch(), clock);
    await assert.rejects(strict.keysOf(issuer(), undefined), GovernanceUnavailableError);
  });
});
