import { AgentError } from '../../protocol/errors.ts';
import { formatKey, type FormatBook } from '../creative-library/index.ts';
import { agentKey, findFormat, type Format, type FormatId } from '../formats/index.ts';

/** What every task of this agent is given of its formats: the formats, and the creative agent URL they are named by. */
export interface AgentFormats {
  formats: () => readonly Format[];
  agentUrl: () => string;
}

/**
 * The formats this agent defines, as previews and its library look them up: named by any spelling
 * of its URL (`findFormat`); another agent's format or an id it does not define is
 * FORMAT_NOT_SUPPORTED at the field that names it.
 */
export function ownFormats(formats: readonly Format[], agentUrl: string): FormatBook {
  return {
    find: (formatId) => findFormat(formats, formatId, agentUrl),
    unknown: (formatId, field) =>
      new AgentError(
        'FORMAT_NOT_SUPPORTED',
        `This agent defines no format ${JSON.stringify(formatId.id)} at ${formatId.agent_url}.`,
        {
          field,
          suggestion: 'list_creative_formats lists the formats this agent defines, with their format_id.',
        },
      ),
  };
}

/** A format id as the library stores and filters it: the same text for every spelling of an agent's URL. */
export const ownFormatKey = (formatId: Pick<FormatId, 'agent_url' | 'id'>) =>
  formatKey({ agent_url: agentKey(formatId.agent_url), id: formatId.id });
