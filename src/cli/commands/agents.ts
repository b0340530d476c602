import { Command, Option } from 'commander';
import type { ConfigFlags } from '../../config.ts';
import { agentTypes } from '../../registry/agents/index.ts';
import { runAndPrint } from '../admin.ts';
import { withDatabaseOptions } from './database-options.ts';
import { orgListCommand } from './org-list.ts';

interface Flags extends ConfigFlags {
  json?: boolean;
}

const AGENT_COLUMNS = ['agent_url', 'type', 'name', 'visibility', 'organization_slug', 'enrolled_at'];

/** `ap agents enroll|list|remove`: the agent catalog, as the registry's operator sees it. */
export function agentsCommand(): Command {
  const agents = new Command('agents').description(
    'Enroll, list and remove agents in the catalog (as the registry operator)',
  );
  agents.addCommand(
    withDatabaseOptions(new Command('enroll'))
      .description(
        'Enroll an agent for an organization (the operator needs no ownership proof; members enroll through the API)',
      )
      .argument('<url>', "the agent's MCP or A2A endpoint")
      .requiredOption('--org <slug>', 'the organization that operates it')
      .addOption(new Option('--type <type>', 'what the agent does').choices([...agentTypes]).makeOptionMandatory())
      .requiredOption('--name <name>', 'its display name')
      .option('--description <text>', 'what it offers')
      .addOption(
        new Option('--visibility <visibility>', 'who sees it in the catalog')
          .choices(['public', 'members_only', 'private'])
          .default('public'),
      )
      .option('--json', 'print JSON')
      .action(
        async (
          url: string,
          flags: Flags & {
            org: string;
            type: (typeof agentTypes)[number];
            name: string;
            description?: string;
            visibility: 'public' | 'members_only' | 'private';
          },
        ) =>
          runAndPrint(
            flags,
            'agents.enroll',
            {
              org: flags.org,
              url,
              type: flags.type,
              name: flags.name,
              description: flags.description,
              visibility: flags.visibility,
            },
            AGENT_COLUMNS,
          ),
      ),
  );
  agents.addCommand(
    orgListCommand(
      'List enrolled agents, whatever their visibility',
      "only this organization's",
      'agents.list',
      AGENT_COLUMNS,
    ),
  );
  agents.addCommand(
    withDatabaseOptions(new Command('remove'))
      .description('Remove an agent from the catalog')
      .argument('<url>', "the agent's URL as enrolled")
      .option('--json', 'print JSON')
      .action(async (url: string, flags: Flags) => runAndPrint(flags, 'agents.remove', { url }, ['url'])),
  );
  return agents;
}
