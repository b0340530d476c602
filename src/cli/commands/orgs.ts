import { Command } from 'commander';
import type { ConfigFlags } from '../../config.ts';
import { runAndPrint } from '../admin.ts';
import { withDatabaseOptions } from './database-options.ts';

interface Flags extends ConfigFlags {
  json?: boolean;
}

const ORG_COLUMNS = ['slug', 'name', 'api_tier', 'is_admin', 'created_at'];

/** `ap orgs create|list`. */
export function orgsCommand(): Command {
  const orgs = new Command('orgs').description('Create and list organizations');
  orgs.addCommand(
    withDatabaseOptions(new Command('create'))
      .description('Create an organization')
      .argument('<slug>', 'lowercase letters, digits and dashes')
      .option('--name <name>', 'display name (default: the slug)')
      .option('--api-tier', 'a paying member organization (sees members-only entries)')
      .option('--admin', "the registry operator's organization (admin-only actions)")
      .option('--json', 'print JSON')
      .action(async (slug: string, flags: Flags & { name?: string; apiTier?: boolean; admin?: boolean }) =>
        runAndPrint(
          flags,
          'orgs.create',
          { slug, name: flags.name, apiTier: flags.apiTier, admin: flags.admin },
          ORG_COLUMNS,
        ),
      ),
  );
  orgs.addCommand(
    withDatabaseOptions(new Command('list'))
      .description('List organizations')
      .option('--json', 'print JSON')
      .action(async (flags: Flags) => runAndPrint(flags, 'orgs.list', {}, ORG_COLUMNS)),
  );
  return orgs;
}
