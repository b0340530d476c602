import { Command } from 'commander';
import { loadConfig, type ConfigFlags } from '../../config.ts';
import { print, runAdmin } from '../admin.ts';
import { withDatabaseOptions } from './database-options.ts';

/** `ap rights revoke <grant>`: the rights holder's revocation of a brand-agent grant, as a signed notice to the buyer. */
export function rightsCommand(): Command {
  const rights = new Command('rights').description("The brand agent's rights grants, as their holder");
  rights.addCommand(
    withDatabaseOptions(new Command('revoke'))
      .description("Revoke a grant (or some of its uses); the buyer's revocation_webhook is sent a signed notice")
      .argument('<grant>', 'the grant’s rights_id, as acquire_rights answered it (rg_…)')
      .requiredOption('--reason <text>', 'why, as the notice says it')
      .option('--uses <uses>', 'only these uses, comma-separated (likeness,voice…)')
      .option('--effective <date-time>', 'when it takes effect (now when absent)')
      .option('--json', 'print JSON')
      .action(
        async (
          grant: string,
          flags: ConfigFlags & { reason: string; uses?: string; effective?: string; json?: boolean },
        ) => {
          const revoked = (await runAdmin(loadConfig(flags), 'rights.revoke', {
            grant,
            reason: flags.reason,
            ...(flags.uses ? { uses: flags.uses.split(',').map((u) => u.trim()) } : {}),
            ...(flags.effective ? { effective: flags.effective } : {}),
          })) as { rights_id: string; status: string; uses: string[] };
          if (flags.json) return print(revoked, true);
          console.log(
            revoked.status === 'revoked'
              ? `Revoked ${revoked.rights_id}; the buyer is sent the notice.`
              : `Revoked those uses of ${revoked.rights_id}; it keeps ${revoked.uses.join(', ')}. The buyer is sent the notice.`,
          );
        },
      ),
  );
  return rights;
}
