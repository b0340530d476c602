import { toAssignment, type PackageAssignmentRow } from '../creatives/index.ts';
import { isTerminal, validActions, type MediaBuyStatus } from './state.ts';

/** core/media-buy.json's cancellation (and core/package.json's). */
export interface Cancellation {
  canceled_at: string;
  canceled_by: 'buyer' | 'seller';
  reason?: string;
}

export interface BuyRow {
  seq: number;
  media_buy_id: string;
  owner: string;
  account_id: string;
  status: MediaBuyStatus;
  revision: number;
  currency: string;
  sandbox: boolean;
  start_time: Date;
  end_time: Date;
  /** Echoed as the buyer sent them: brand, po_number, invoice_recipient (bank details never answered)... */
  details: Record<string, unknown>;
  cancellation: Cancellation | null;
  confirmed_at: Date;
  updated_at: Date;
}

export interface PackageRow {
  package_id: string;
  media_buy_id: string;
  position: number;
  product_id: string;
  pricing_option_id: string;
  budget: number;
  bid_price: number | null;
  /** Null: the buy's own flight. */
  start_time: Date | null;
  end_time: Date | null;
  paused: boolean;
  cancellation: Cancellation | null;
  /** The package's other agreed terms, answered as they are (targeting_overlay, measurement_terms, format_ids, pacing...). */
  details: Record<string, unknown>;
}

export interface HistoryEntry {
  revision: number;
  action: string;
  package_id?: string | null;
  summary: string;
  status: MediaBuyStatus;
  actor: string;
  at: Date;
}

/** Creatives are due two days before the flight starts (at once for a buy that starts now). */
const creativeLeadMs = 48 * 3600 * 1000;

export function creativeDeadline(buy: Pick<BuyRow, 'start_time' | 'confirmed_at'>): Date {
  return new Date(Math.max(buy.confirmed_at.getTime(), buy.start_time.getTime() - creativeLeadMs));
}

/** What a buy spends: its packages' budgets but those canceled. */
export const totalBudget = (packages: readonly PackageRow[]) =>
  packages.filter((p) => !p.cancellation).reduce((sum, p) => sum + p.budget, 0);

/**
 * A package as core/package.json answers it, its flight resolved from the buy's when it has none
 * of its own, with its creative assignments when given (any package's among them).
 */
export function toPackage(
  pkg: PackageRow,
  buy: BuyRow,
  assignments?: readonly PackageAssignmentRow[],
): Record<string, unknown> & { package_id: string } {
  return {
    package_id: pkg.package_id,
    product_id: pkg.product_id,
    pricing_option_id: pkg.pricing_option_id,
    budget: pkg.budget,
    ...(pkg.bid_price === null ? {} : { bid_price: pkg.bid_price }),
    ...shown(pkg.details),
    ...(assignments
      ? { creative_assignments: assignments.filter((a) => a.package_id === pkg.package_id).map(toAssignment) }
      : {}),
    start_time: (pkg.start_time ?? buy.start_time).toISOString(),
    end_time: (pkg.end_time ?? buy.end_time).toISOString(),
    paused: pkg.paused,
    canceled: pkg.cancellation !== null,
    ...(pkg.cancellation ? { cancellation: pkg.cancellation } : {}),
  };
}

/** The buy's fields every answer shares: state, revision, what may be done next, and the buyer's own echoed fields. */
export function buySummary(buy: BuyRow): Record<string, unknown> {
  return {
    media_buy_id: buy.media_buy_id,
    status: buy.status,
    revision: buy.revision,
    confirmed_at: buy.confirmed_at.toISOString(),
    ...(isTerminal(buy.status) ? {} : { creative_deadline: creativeDeadline(buy).toISOString() }),
    ...(buy.cancellation ? { cancellation: buy.cancellation } : {}),
    valid_actions: validActions(buy.status),
    ...shown(buy.details),
  };
}

/**
 * Stored terms as answered: credentials the buyer handed over (a property list's auth_token, an
 * invoice recipient's bank details) are kept for the seller's use, never sent back.
 */
function shown(details: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...details };
  const overlay = details['targeting_overlay'] as Record<string, unknown> | undefined;
  if (overlay) {
    out['targeting_overlay'] = Object.fromEntries(
      Object.entries(overlay).map(([key, value]) => [
        key,
        key === 'property_list' || key.startsWith('collection_list') ? withoutKey(value, 'auth_token') : value,
      ]),
    );
  }
  if (details['invoice_recipient']) out['invoice_recipient'] = withoutKey(details['invoice_recipient'], 'bank');
  return out;
}

function withoutKey(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== key));
}
