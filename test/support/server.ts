import { loadConfig, type Config } from '../../src/config.ts';
import type { Database } from '../../src/db/database.ts';
import { loadMigrations } from '../../src/db/migrate.ts';
import { buildApp, type AppDeps } from '../../src/app/build-app.ts';
import type { FastifyInstance } from 'fastify';
import type { TestEngine } from './engines.ts';

export interface TestServer {
  app: FastifyInstance;
  db: Database;
  /** Base URL on loopback, e.g. http://127.0.0.1:41234 */
  url: string;
  close(): Promise<void>;
}

/** The AP_ADMIN_KEY every test server accepts: an admin key of the operator's organization. */
export const adminKey = 'test-admin-key-for-the-admin-organization';
export const asAdmin = { authorization: `Bearer ${adminKey}` };

/** A test configuration: loopback, a free port, no logs; `env` overrides as the environment would. */
export function testConfig(env: Record<string, string> = {}): Config {
  // Every test signs in from 127.0.0.1; the sign-in limit has its own test. The crawl and probe
  // workers would fetch saved domains and enrolled agents through the system's DNS: tests that want them turn them on. Tests start
  // from an empty registry (the demo's own tests turn it on).
  return loadConfig(
    {},
    {
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      AP_ADMIN_KEY: adminKey,
      RATE_LIMIT_SIGN_INS_PER_MINUTE: '100000',
      CRAWL_WORKER: 'false',
      PROBE_WORKER: 'false',
      AGENT_PROFILE_EVENTS: 'false',
      AGENT_VALIDATE_OUTPUTS: 'throw',
      AP_DEMO: 'false',
      AGENTS: 'false',
      ...env,
    },
  );
}

export interface TestServerOptions {
  /** Environment overrides for the configuration. */
  env?: Record<string, string>;
  /** Adds test-only routes or setup before the server starts listening. */
  extend?: (app: FastifyInstance, db: Database) => void | Promise<void>;
  /** Replaces parts the composition root would build (the fetch client, the authenticator). */
  deps?: Pick<
    AppDeps,
    'fetcher' | 'authenticator' | 'enrichment' | 'clock' | 'resolveTxt' | 'reviewAppliers' | 'tenants'
  >;
}

/** Starts the real server on loopback over a fresh, migrated database of the given engine. */
export async function startTestServer(engine: TestEngine, options: TestServerOptions = {}): Promise<TestServer> {
  const db = await engine.openMigrated();
  try {
    const migrations = await loadMigrations();
    const app = await buildApp({ config: testConfig(options.env), db, migrations, ...options.deps });
    await options.extend?.(app, db);
    await app.listen({ port: 0, host: '127.0.0.1' });
    // As a deployment waits for /readyz: the authorization index has read the registry, the
    // agents' profiles are derived, the demo has enrolled this deployment's agents.
    await app.readiness.ready();
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('server has no TCP address');
    return { app, db, url: `http://127.0.0.1:${address.port}`, close: () => app.close() };
  } catch (err) {
    // A server that fails to start must not keep its database open, or the test run hangs.
    await db.close().catch(() => {});
    throw err;
  }
}
