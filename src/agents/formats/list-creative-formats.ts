import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemasDir } from '../../protocol/schemas.ts';
import type { AgentTask, JsonSchema, TaskContext } from '../runtime/task.ts';
import { pageRequestInput, paginate, type PageRequest } from '../runtime/pagination.ts';
import { textInput } from '../runtime/text-bounds.ts';
import { filterFormats, type FormatFilters } from './filter.ts';
import type { Format } from './format.ts';

/** An entry of the response's `creative_agents`: another agent whose formats a buyer may list. */
export interface CreativeAgent {
  agent_url: string;
  agent_name?: string;
  capabilities?: Array<'validation' | 'assembly' | 'generation' | 'preview' | 'delivery'>;
}

export interface ListCreativeFormatsOptions {
  /** The formats this agent accepts, asked at each call (by its caller, whose account may see more). */
  formats: (ctx: TaskContext) => readonly Format[] | Promise<readonly Format[]>;
  /** Other creative agents to point buyers to; none when absent or empty. */
  creativeAgents?: () => CreativeAgent[];
  /** Whose published response the answers are checked against: a sales agent's (default) or a creative agent's; the two differ only in `sandbox`. */
  protocol?: 'media_buy' | 'creative';
}

/**
 * `list_creative_formats` (agent-tasks spec §4): the agent's formats narrowed by the request's
 * filters, a page at a time.
 */
export function listCreativeFormatsTask({
  formats,
  creativeAgents,
  protocol = 'media_buy',
}: ListCreativeFormatsOptions): AgentTask {
  return {
    name: 'list_creative_formats',
    description:
      'List the creative formats this agent accepts, with their assets and renders. Filters (all optional, combined with AND): format_ids ({agent_url, id} objects), type (display, video, audio, dooh), asset_types (formats having all of them), max_width/max_height/min_width/min_height (pixels, any render), is_responsive, name_search (case-insensitive), wcag_level, disclosure_positions, disclosure_persistence, input_format_ids, output_format_ids. Paginated with pagination.max_results and pagination.cursor.',
    input: requestSchema,
    output: {
      $ref: `/schemas/3.0.6/${protocol === 'creative' ? 'creative' : 'media-buy'}/list-creative-formats-response.json`,
    },
    mutates: false,
    async handler(args, ctx) {
      const request = args as FormatFilters & { pagination?: PageRequest };
      const { page, pagination } = paginate(filterFormats(await formats(ctx), request), request.pagination);
      const agents = creativeAgents?.() ?? [];
      return { formats: page, ...(agents.length > 0 ? { creative_agents: agents } : {}), pagination };
    },
  };
}

function publishedEnum(path: string): string[] {
  return (JSON.parse(readFileSync(join(schemasDir, '3.0.6', path), 'utf8')) as { enum: string[] }).enum;
}

const formatId: JsonSchema = {
  type: 'object',
  description: 'core/format-id.json: an object, never a bare string.',
  properties: {
    agent_url: { type: 'string', format: 'uri', description: 'The creative agent that defines the format.' },
    id: { type: 'string', pattern: '^[a-zA-Z0-9_-]+$' },
    width: { type: 'integer', minimum: 1 },
    height: { type: 'integer', minimum: 1 },
    duration_ms: { type: 'number', minimum: 1 },
  },
  required: ['agent_url', 'id'],
  dependencies: { width: ['height'], height: ['width'] },
};

const formatIds = (description: string): JsonSchema => ({ type: 'array', minItems: 1, items: formatId, description });
const enumSet = (path: string, description: string): JsonSchema => ({
  type: 'array',
  minItems: 1,
  uniqueItems: true,
  items: { type: 'string', enum: publishedEnum(path) },
  description,
});

/**
 * What creative/ and media-buy/list-creative-formats-request.json accept (either one), written out
 * whole because an input schema must stand alone in MCP's tools/list. The two differ only in
 * `type` and `include_pricing` (creative) and the wider `asset_types` (media-buy); both allow
 * other properties.
 */
const requestSchema: JsonSchema = {
  type: 'object',
  properties: {
    format_ids: formatIds('Only these formats.'),
    type: { type: 'string', enum: ['audio', 'video', 'display', 'dooh'] },
    asset_types: {
      type: 'array',
      minItems: 1,
      items: { type: 'string', enum: publishedEnum('enums/asset-content-type.json') },
      description: 'Formats that have all of these asset types.',
    },
    max_width: { type: 'integer', description: 'Pixels, inclusive: formats with a render at most this wide.' },
    max_height: { type: 'integer', description: 'Pixels, inclusive: formats with a render at most this high.' },
    min_width: { type: 'integer', description: 'Pixels, inclusive: formats with a render at least this wide.' },
    min_height: { type: 'integer', description: 'Pixels, inclusive: formats with a render at least this high.' },
    is_responsive: {
      type: 'boolean',
      description: 'true: formats that adapt to their container; false: fixed-size ones.',
    },
    name_search: textInput('name', 'Case-insensitive part of the name'),
    wcag_level: {
      type: 'string',
      enum: publishedEnum('enums/wcag-level.json'),
      description: 'Formats meeting at least this level.',
    },
    disclosure_positions: enumSet(
      'enums/disclosure-position.json',
      'Formats that can render all of these disclosure positions.',
    ),
    disclosure_persistence: enumSet(
      'enums/disclosure-persistence.json',
      'Formats supporting each of these persistence modes at some position.',
    ),
    input_format_ids: formatIds('Formats that take any of these as input.'),
    output_format_ids: formatIds('Formats that produce any of these.'),
    include_pricing: { type: 'boolean', description: 'Ask for pricing_options (this agent prices no formats).' },
    account: { type: 'object', description: 'core/account-ref.json: {account_id} or {brand, operator}.' },
    pagination: { ...pageRequestInput, additionalProperties: false },
    ext: { type: 'object' },
  },
  additionalProperties: true,
};
