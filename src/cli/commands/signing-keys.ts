import { Command } from 'commander';
import { loadConfig, type ConfigFlags } from '../../config.ts';
import { print, runAdmin } from '../admin.ts';
import { withDatabaseOptions } from './database-options.ts';

/** `ap signing-keys rotate`: a new key for the agents' webhook signatures. */
export function signingKeysCommand(): Command {
  const keys = new Command('signing-keys').description("The agents' webhook signing keys");
  keys.addCommand(
    withDatabaseOptions(new Command('rotate'))
      .description(
        'Retire the current signing key and make a new one; the old key stays published until its signatures expire',
      )
      .option('--json', 'print JSON')
      .action(async (flags: ConfigFlags & { json?: boolean }) => {
        const config = loadConfig(flags);
        const rotated = (await runAdmin(config, 'signing-keys.rotate', {
          alg: config.agents.signingAlg,
          secret: config.agents.signingKeySecret,
        })) as { kid: string; alg: string };
        if (flags.json) return print(rotated, true);
        console.log(
          `Signing with ${rotated.kid} (${rotated.alg}) from now on; the previous key stays in /.well-known/jwks.json for 6 more minutes.`,
        );
      }),
  );
  return keys;
}
