import { publicTestCredential } from '../../../src/config.ts';
import { staticResolver } from '../../../src/net/resolver.ts';
import { SafeFetch } from '../../../src/net/safe-fetch.ts';
import type { TestEngine } from '../engines.ts';
import { adminKey, startTestServer, type TestServer } from '../server.ts';

/** Budgets high enough that cases reach the handlers behind the limiter (the limiter has tests of its own). */
const unlimited = Object.fromEntries(
  [
    'BULK_RESOLVE_PER_MINUTE',
    'SAVES_PER_HOUR',
    'SAVES_PER_HOUR_PER_ORG',
    'SAVES_PER_HOUR_PER_IP',
    'CRAWL_REQUESTS_PER_HOUR',
    'ENRICH_PER_MINUTE',
    'PROBES_PER_MINUTE',
    'PROBES_PER_MINUTE_PER_USER',
    'ADAGENTS_TOOLS_PER_MINUTE',
    'VALIDATE_PUBLISHER_PER_MINUTE',
  ].map((name) => [`RATE_LIMIT_${name}`, '1000000']),
);

/** The body limit the fuzz server runs with (the default, said here so the fuzzer knows it). */
const bodyLimitBytes = 1_048_576;

export interface FuzzServer extends TestServer {
  credentials: Record<'admin' | 'agent', string>;
  bodyLimitBytes: number;
}

/**
 * The server the fuzzer runs against: the registry with the demo world (so lookups find
 * publishers, brands and agents) and the test deployment's agents, on loopback. Every name
 * resolves to nothing and every TXT lookup fails, so no case leaves this machine; a fetch of a
 * loopback address is refused by the fetch client's policy, and the fuzzer's canary sees it if not.
 */
export async function startFuzzServer(engine: TestEngine): Promise<FuzzServer> {
  const fetcher = new SafeFetch({ resolver: staticResolver({}), timeoutMs: 2000 });
  const resolveTxt = async (name: string): Promise<string[][]> => {
    throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  };
  const server = await startTestServer(engine, {
    env: {
      AGENTS: 'true',
      AP_DEMO: 'true',
      BODY_LIMIT_BYTES: String(bodyLimitBytes),
      RATE_LIMIT_CRAWL_DOMAIN_SECONDS: '1',
      ...unlimited,
    },
    deps: { fetcher, resolveTxt },
  });
  await server.app.demoAgents;
  return {
    ...server,
    credentials: { admin: adminKey, agent: publicTestCredential },
    bodyLimitBytes,
    close: async () => {
      await server.close();
      await fetcher.close();
    },
  };
}
