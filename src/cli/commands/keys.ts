import { Command, Option } from 'commander';
import { loadConfig, type ConfigFlags } from '../../config.ts';
import { print, runAdmin } from '../admin.ts';
import { withDatabaseOptions } from './database-options.ts';
import { orgListCommand } from './org-list.ts';

interface Flags extends ConfigFlags {
  json?: boolean;
}

const KEY_COLUMNS = ['id', 'organization_slug', 'name', 'prefix', 'role', 'created_at', 'last_used_at', 'revoked_at'];
const role = () => new Option('--role <role>', 'member or admin').choices(['member', 'admin']).default('member');

/** `ap keys create|revoke|list`: organization API keys, from the command line. */
export function keysCommand(): Command {
  const keys = new Command('keys').description('Create, revoke and list organization API keys');
  keys.addCommand(
    withDatabaseOptions(new Command('create'))
      .description('Create an API key; the key is printed once and cannot be shown again')
      .requiredOption('--org <slug>', 'organization the key acts for')
      .option('--name <name>', 'what the key is for', 'created with ap keys create')
      .addOption(role())
      .option('--json', 'print JSON')
      .action(async (flags: Flags & { org: string; name: string; role: 'member' | 'admin' }) => {
        const created = (await runAdmin(loadConfig(flags), 'keys.create', {
          org: flags.org,
          name: flags.name,
          role: flags.role,
        })) as {
          key: string;
          record: { id: string };
        };
        if (flags.json) return print(created, true);
        console.log(
          `Created key ${created.record.id} for ${flags.org}. Copy it now; it will not be shown again:\n\n  ${created.key}\n`,
        );
      }),
  );
  keys.addCommand(
    withDatabaseOptions(new Command('revoke'))
      .description('Revoke an API key; it stops working at once on every server')
      .argument('<id>', 'key id, as `ap keys list` shows')
      .option('--json', 'print JSON')
      .action(async (id: string, flags: Flags) => {
        const revoked = await runAdmin(loadConfig(flags), 'keys.revoke', { id });
        if (flags.json) return print(revoked, true);
        console.log(`Revoked key ${id}.`);
      }),
  );
  keys.addCommand(
    orgListCommand('List API keys (never the keys themselves)', 'only this organization', 'keys.list', KEY_COLUMNS),
  );
  return keys;
}
