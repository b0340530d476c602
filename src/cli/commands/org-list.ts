import { Command } from 'commander';
import type { AdminCommand } from '../../admin/commands.ts';
import type { ConfigFlags } from '../../config.ts';
import { runAndPrint } from '../admin.ts';
import { withDatabaseOptions } from './database-options.ts';

/** `list [--org <slug>] [--json]`: an admin command's rows, of every organization or of one. */
export function orgListCommand(
  description: string,
  orgHelp: string,
  command: Extract<AdminCommand, 'agents.list' | 'keys.list'>,
  columns: string[],
): Command {
  return withDatabaseOptions(new Command('list'))
    .description(description)
    .option('--org <slug>', orgHelp)
    .option('--json', 'print JSON')
    .action(async (flags: ConfigFlags & { org?: string; json?: boolean }) =>
      runAndPrint(flags, command, { org: flags.org }, columns),
    );
}
