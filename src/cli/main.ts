import { Command, CommanderError } from 'commander';
import pkg from '../../package.json' with { type: 'json' };
import { ConfigError } from '../config.ts';
import { ApError } from '../protocol/errors.ts';
import { crawlCommand } from './commands/crawl.ts';
import { keysCommand } from './commands/keys.ts';
import { signingKeysCommand } from './commands/signing-keys.ts';
import { rightsCommand } from './commands/rights.ts';
import { migrateCommand } from './commands/migrate.ts';
import { mirrorCommand } from './commands/mirror.ts';
import { orgsCommand } from './commands/orgs.ts';
import { agentsCommand } from './commands/agents.ts';
import { callCommand, toolsCommand } from './commands/call.ts';
import { serveCommand } from './commands/serve.ts';
import { usersCommand } from './commands/users.ts';
import { webhooksCommand } from './commands/webhooks.ts';

/** The `ap` command. Each subcommand lives in its own file under `commands/`. */
export function program(): Command {
  return new Command('ap')
    .description('The ap registry, agents and client.')
    .version(pkg.version)
    .showHelpAfterError()
    .addCommand(serveCommand())
    .addCommand(mirrorCommand())
    .addCommand(migrateCommand())
    .addCommand(orgsCommand())
    .addCommand(agentsCommand())
    .addCommand(usersCommand())
    .addCommand(keysCommand())
    .addCommand(signingKeysCommand())
    .addCommand(rightsCommand())
    .addCommand(crawlCommand())
    .addCommand(callCommand())
    .addCommand(toolsCommand())
    .addCommand(webhooksCommand());
}

export async function main(argv: string[]): Promise<void> {
  try {
    await program().exitOverride().parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) process.exit(err.exitCode);
    if (err instanceof ApError) {
      console.error(`ap: ${err.message} (${err.code})`);
      process.exit(1);
    }
    if (err instanceof ConfigError) {
      console.error(`ap: ${err.message}`);
      process.exit(2);
    }
    console.error(`ap: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
