import type { CreativeStatus, LibraryCreative } from '../../creative-library/index.ts';

/** A creative of the library, as stored in sales_creatives. */
export interface CreativeRow extends LibraryCreative {
  seq: number;
  owner: string;
  account_id: string;
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

/**
 * The review rule, deterministic until a seller-side review exists: a valid creative of a sandbox
 * account is approved at once; any other new or changed creative waits in pending_review. A
 * creative synced unchanged keeps the status it has.
 */
export const reviewStatus = (sandbox: boolean): CreativeStatus => (sandbox ? 'approved' : 'pending_review');
