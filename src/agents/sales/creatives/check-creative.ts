import { AgentError } from '../../../protocol/errors.ts';
import type { FormatBook } from '../../creative-library/index.ts';
import { sameFormatId, type Format } from '../../formats/index.ts';

/**
 * This seller's formats as its library looks them up: by the format_id its products name (the
 * creative agent's URL in any spelling, and the id); any other is VALIDATION_ERROR at `format_id`.
 */
export function sellerFormats(formats: readonly Format[]): FormatBook {
  return {
    find: (formatId) => formats.find((f) => sameFormatId(f.format_id, formatId)),
    unknown: (formatId, field) =>
      new AgentError(
        'VALIDATION_ERROR',
        `Format ${formatId.id} of ${formatId.agent_url} is not one this seller takes.`,
        {
          field,
          details: { format_id: formatId },
          suggestion: 'list_creative_formats lists the formats, with the agent_url to name them by.',
        },
      ),
  };
}
