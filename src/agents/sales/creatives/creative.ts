import type { FormatId } from '../../formats/index.ts';

/** enums/creative-status.json. */
export const creativeStatuses = ['processing', 'pending_review', 'approved', 'rejected', 'archived'] as const;
export type CreativeStatus = (typeof creativeStatuses)[number];

/** A creative of the library, as stored in sales_creatives. */
export interface CreativeRow {
  seq: number;
  owner: string;
  account_id: string;
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

/** One package a creative is assigned to. */
export interface AssignmentRow {
  account_id: string;
  creative_id: string;
  package_id: string;
  weight: number | null;
  placement_ids: string[] | null;
  assigned_at: Date;
}

/** core/creative-asset.json, the fields this seller reads. */
export interface CreativeAsset {
  creative_id: string;
  name: string;
  format_id: FormatId;
  assets: Record<string, unknown>;
  tags?: string[];
  [field: string]: unknown;
}

/** Fields of a creative asset kept in their own columns, or not kept at all (weight and placement_ids belong to an upload into a buy, not to the library). */
const notDetails = new Set(['creative_id', 'name', 'format_id', 'assets', 'tags', 'status', 'weight', 'placement_ids']);

export const detailsOf = (creative: CreativeAsset) => Object.fromEntries(Object.entries(creative).filter(([k]) => !notDetails.has(k)));

export const formatKey = (format: Pick<FormatId, 'agent_url' | 'id'>) => `${format.agent_url} ${format.id}`;

/**
 * The review rule, deterministic until a seller-side review exists: a valid creative of a sandbox
 * account is approved at once; any other new or changed creative waits in pending_review. A
 * creative synced unchanged keeps the status it has.
 */
export const reviewStatus = (sandbox: boolean): CreativeStatus => (sandbox ? 'approved' : 'pending_review');
