import closeWithGrace from 'close-with-grace';
import { Command } from 'commander';

export function mirrorCommand(): Command {
  return new Command('mirror')
    .description('Serve a read-only copy of a registry’s lookups and authorization checks, following its change feed')
    .option('--from <url>', 'base URL of the registry to follow (env AP_MIRROR_FROM)')
    .option('--token <credential>', 'API key for the registry’s feed and snapshot (env AP_MIRROR_TOKEN)')
    .option('--port <port>', 'port to listen on (env PORT, default 3000; 0 picks a free one)')
    .option('--host <host>', 'interface to listen on (env HOST, default 127.0.0.1)')
    .action(async (flags: { from?: string; token?: string; port?: string; host?: string }) => {
      const { loadMirrorConfig, startMirror } = await import('../../mirror/index.ts');
      const config = loadMirrorConfig(flags);
      const mirror = await startMirror(config);
      mirror.app.log.info({ upstream: config.upstreamUrl }, `ap mirror serving at ${mirror.url}`);
      closeWithGrace({ delay: 10_000, logger: false }, async ({ signal, err }) => {
        if (err) mirror.app.log.error({ err }, 'closing after an unexpected error');
        else mirror.app.log.info({ signal }, 'shutting down');
        await mirror.close();
      });
    });
}
