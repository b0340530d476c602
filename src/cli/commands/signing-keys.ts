import { Command } from 'commander';
import { loadConfig, type ConfigFlags } from '../../config.ts';
import { print, runAdmin } from '../admin.ts';
import { withDatabaseOptions } from './database-options.ts';

/** `ap signing-keys rotate [--governance]`: a new key for the agents' webhook signatures, or for the governance agent's approvals. */
export function signingKeysCommand(): Command {
  const keys = new Command('signing-keys').description("The agents' signing keys (webhooks, governance approvals)");
  keys.addCommand(
    withDatabaseOptions(new Command('rotate'))
      .description(
        'Retire the current signing key and make a new one; the old key stays published until its signatures expire',
      )
      .option('--governance', 'rotate the key that signs governance approvals instead of webhooks')
      .option('--json', 'print JSON')
      .action(async (flags: ConfigFlags & { json?: boolean; governance?: boolean }) => {
        const config = loadConfig(flags);
        const rotated = (await runAdmin(config, 'signing-keys.rotate', {
          alg: config.agents.signingAlg,
          secret: config.agents.signingKeySecret,
          purpose: flags.governance ? 'governance-signing' : 'webhook-signing',
        })) as { kid: string; alg: string };
        if (flags.json) return print(rotated, true);
        const kept = flags.governance ? '24 more hours' : '6 more minutes';
        console.log(
          `Signing with ${rotated.kid} (${rotated.alg}) from now on; the previous key stays in /.well-known/jwks.json for ${kept}.`,
        );
      }),
  );
  return keys;
}
