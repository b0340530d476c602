// An `ap` registry without agents over the lookups bench's world (embedded PGlite, in memory), for
// benchmarks of the registry's own endpoints: prints `listening at <url>` once its authorization
// index has caught up with what was written.
import { loadConfig } from '../../src/config.ts';
import { loadMigrations, migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { buildApp } from '../../src/app/build-app.ts';
import { buildLookupWorld } from './lookup-world.ts';

const config = loadConfig({ port: '0', dataDir: 'memory://' }, { ...process.env, AP_DEMO: 'false' });
const db = await openPglite({ dataDir: 'memory://' });
const migrations = await loadMigrations();
await migrate(db, migrations);
await buildLookupWorld(db);
const app = await buildApp({ config, db, migrations, tenants: [] });
await app.listen({ port: 0, host: '127.0.0.1' });
await app.authorizationIndex.until((index) => index.live);
const { port } = app.server.address() as { port: number };
console.log(`listening at http://127.0.0.1:${port}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
