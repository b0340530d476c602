// An `ap` server with the runtime's test tenant mounted at /test (embedded PGlite, in memory), for
// benchmarks that call an agent: prints `listening at <url>` once it serves. With
// BENCH_AUTH=cached, a credential is verified against the database once and then remembered, as a
// verification cache would (to measure the transport without the per-request key lookup).
import { credentialAuthenticator, type Authenticator } from '../../src/auth/authenticator.ts';
import type { Principal } from '../../src/auth/principal.ts';
import { loadConfig } from '../../src/config.ts';
import { loadMigrations, migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { buildApp } from '../../src/server.ts';
import { testTenant } from '../../test/support/agents.ts';

const config = loadConfig({ port: '0', dataDir: 'memory://' });
const db = await openPglite({ dataDir: 'memory://' });
const migrations = await loadMigrations();
await migrate(db, migrations);
const app = await buildApp({ config, db, migrations, tenants: [testTenant().tenant], ...(process.env['BENCH_AUTH'] === 'cached' ? { authenticator: cached() } : {}) });
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
console.log(`listening at http://127.0.0.1:${port}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));

function cached(): Authenticator {
  const verify = credentialAuthenticator(db, () => Promise.reject(new Error('the bench sends API keys only')));
  const known = new Map<string, Principal>();
  return {
    async authenticate(credential, options) {
      const hit = known.get(credential);
      if (hit) return hit;
      const principal = await verify.authenticate(credential, options);
      if (principal) known.set(credential, principal);
      return principal;
    },
  };
}
