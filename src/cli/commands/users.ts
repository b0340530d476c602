import { Command, Option } from 'commander';
import { text } from 'node:stream/consumers';
import type { ConfigFlags } from '../../config.ts';
import { runAndPrint } from '../admin.ts';
import { withDatabaseOptions } from './database-options.ts';

/** `ap users create`: a local user who signs in to the dashboard and the OAuth login page. */
export function usersCommand(): Command {
  const users = new Command('users').description('Create local users');
  users.addCommand(
    withDatabaseOptions(new Command('create'))
      .description('Create a local user; the password is read from standard input (or AP_USER_PASSWORD)')
      .argument('<email>')
      .option('--name <name>', 'display name, shown as the editor of revisions')
      .option('--org <slug>', 'make the user a member of this organization')
      .addOption(new Option('--role <role>', 'role in --org').choices(['member', 'admin']).default('member'))
      .option('--json', 'print JSON')
      .action(
        async (
          email: string,
          flags: ConfigFlags & { name?: string; org?: string; role: 'member' | 'admin'; json?: boolean },
        ) => {
          // Never a flag: command lines are visible to every user of the machine.
          const password = process.env.AP_USER_PASSWORD ?? (await text(process.stdin)).replace(/\r?\n$/, '');
          await runAndPrint(
            flags,
            'users.create',
            { email, password, name: flags.name, org: flags.org, role: flags.role },
            ['id', 'email', 'display_name'],
          );
        },
      ),
  );
  return users;
}
