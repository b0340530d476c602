import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/** A campaign plan as sync_plans takes it (governance/sync-plans-request.json), the fields the checks read. */
export interface Plan {
  plan_id: string;
  brand: { domain: string; brand_id?: string };
  objectives: string;
  budget: {
    total: number;
    currency: string;
    per_seller_max_pct?: number;
    reallocation_threshold?: number;
    reallocation_unlimited?: boolean;
  };
  channels?: { required?: string[]; allowed?: string[] };
  flight: { start: string; end: string };
  countries?: string[];
  policy_ids?: string[];
  human_review_required?: boolean;
  approved_sellers?: string[] | null;
  [field: string]: unknown;
}

/** The plan as stored, with the agent's own key and where its budget stands. */
export interface StoredPlan {
  id: string;
  owner: string;
  plan_id: string;
  version: number;
  plan: Plan;
  plan_hash: string;
  status: 'active' | 'suspended' | 'completed';
}

/**
 * The `plan_hash` a token carries: SHA-256 of the plan's RFC 8785 form, base64url without padding,
 * so an auditor holding the plan can prove which state an approval attested to.
 */
export function planHash(plan: Plan): string {
  return createHash('sha256')
    .update(canonicalize(plan) ?? '')
    .digest('base64url');
}

/** The categories every check evaluates, as sync_plans answers them active for each plan. */
export const evaluatedCategories = [
  'budget_authority',
  'seller_authority',
  'geo_compliance',
  'channel_compliance',
  'flight_compliance',
  'delivery_drift',
  'human_review',
] as const;

export type Category = (typeof evaluatedCategories)[number];
