// An `ap` server with the runtime's test tenant mounted at /test (embedded PGlite, in memory), for
// benchmarks that call an agent: prints `listening at <url>` once it is ready (the demo seeded, the
// indexes caught up), so no start-up work runs inside a measured round.
import { loadConfig } from '../../src/config.ts';
import { loadMigrations, migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { buildApp } from '../../src/app/build-app.ts';
import { testTenant } from '../../test/support/agents.ts';

const config = loadConfig({ port: '0', dataDir: 'memory://' });
const db = await openPglite({ dataDir: 'memory://' });
const migrations = await loadMigrations();
await migrate(db, migrations);
const app = await buildApp({ config, db, migrations, tenants: [testTenant().tenant] });
await app.listen({ port: 0, host: '127.0.0.1' });
await app.readiness.ready();
const { port } = app.server.address() as { port: number };
console.log(`listening at http://127.0.0.1:${port}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
