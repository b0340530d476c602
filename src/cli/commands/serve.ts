import closeWithGrace from 'close-with-grace';
import { Command } from 'commander';
import { loadConfig, type ConfigFlags } from '../../config.ts';
import { withDatabaseOptions } from './database-options.ts';

export function serveCommand(): Command {
  return withDatabaseOptions(
    new Command('serve')
      .description('Run the registry HTTP server (applies pending migrations first)')
      .option('--port <port>', 'port to listen on (env PORT, default 3000; 0 picks a free one)')
      .option('--host <host>', 'interface to listen on (env HOST, default 127.0.0.1)')
      .option('--role <role>', 'all, web (requests only) or worker (background work too) (env AP_ROLE, default all)'),
  ).action(async (flags: ConfigFlags & { role?: string }) => {
    const config = loadConfig({ ...flags, processRole: flags.role });
    // Loaded only when serving: the whole server takes about a second to load, which every other
    // command (and `ap --help`) would otherwise pay.
    const { startServer } = await import('../../app/start-server.ts');
    const server = await startServer(config);
    server.app.log.info({ engine: server.engine }, `ap serving at ${server.url}`);
    // For a person at a terminal; a log collector gets the JSON lines alone.
    if (process.stderr.isTTY) {
      await server.app.readiness.ready();
      const { banner } = await import('../banner.ts');
      process.stderr.write(
        banner({
          url: config.publicUrl ?? server.url,
          firstRun: server.app.firstRun,
          credential: server.app.demoAgents ? config.agents.testCredential : undefined,
        }),
      );
    }
    // SIGTERM/SIGINT stop accepting requests, let in-flight ones finish, then close the database.
    closeWithGrace({ delay: 10_000, logger: false }, async ({ signal, err }) => {
      if (err) server.app.log.error({ err }, 'closing after an unexpected error');
      else server.app.log.info({ signal }, 'shutting down');
      await server.close();
    });
  });
}
