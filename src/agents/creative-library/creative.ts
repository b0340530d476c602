import type { FormatId } from '../formats/index.ts';
import { textBounds, textInput } from '../runtime/index.ts';

/** enums/creative-status.json. */
export const creativeStatuses = ['processing', 'pending_review', 'approved', 'rejected', 'archived'] as const;
export type CreativeStatus = (typeof creativeStatuses)[number];

/** core/creative-asset.json, the fields a library reads. */
export interface CreativeAsset {
  creative_id: string;
  name: string;
  format_id: FormatId;
  assets: Record<string, unknown>;
  tags?: string[];
  [field: string]: unknown;
}

/** A creative as any library keeps it, whichever agent's table holds it and whatever it is keyed by there. */
export interface LibraryCreative {
  creative_id: string;
  name: string;
  format_id: FormatId;
  assets: Record<string, unknown>;
  tags: string[];
  status: CreativeStatus;
  /** The creative's other fields as sent (inputs, industry_identifiers, provenance...). */
  details: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/**
 * An input set of a creative or a preview (core/creative-asset.json `inputs[]`, preview_creative's
 * `inputs[]`, build_creative's `preview_inputs[]`): its free text bounded (docs/decisions.md), each
 * rendered as a variant.
 */
export const inputSetSummary = {
  type: 'object',
  properties: {
    name: textInput('name'),
    macros: {
      type: 'object',
      additionalProperties: { type: 'string', maxLength: textBounds.prose },
      description: 'Macro values by macro name (each at most 10,000 characters).',
    },
    context_description: textInput('prose', 'The context the variant is shown in'),
  },
  required: ['name'],
} as const;

/** core/creative-asset.json, summarized for MCP's tools/list (the published schema is checked in full). */
export const creativeAssetSummary = {
  type: 'object',
  description: 'core/creative-asset.json',
  properties: {
    creative_id: { type: 'string' },
    name: textInput('name'),
    format_id: { type: 'object' },
    assets: { type: 'object' },
    tags: { type: 'array', items: textInput('name') },
    inputs: { type: 'array', items: inputSetSummary },
  },
  required: ['creative_id', 'name', 'format_id', 'assets'],
} as const;

/** Fields of a creative asset kept in their own columns, or not kept at all (weight and placement_ids belong to an upload into a buy, not to the library). */
const notDetails = new Set(['creative_id', 'name', 'format_id', 'assets', 'tags', 'status', 'weight', 'placement_ids']);

export const detailsOf = (creative: CreativeAsset) =>
  Object.fromEntries(Object.entries(creative).filter(([k]) => !notDetails.has(k)));

/** A format id as one text, exactly as spelled: what the sales library filters on. */
export const formatKey = (format: Pick<FormatId, 'agent_url' | 'id'>) => `${format.agent_url} ${format.id}`;
