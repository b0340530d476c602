import { randomBytes } from 'node:crypto';

export const accountStatuses = [
  'active',
  'pending_approval',
  'rejected',
  'payment_required',
  'suspended',
  'closed',
] as const;
/** enums/account-status.json. */
export type AccountStatus = (typeof accountStatuses)[number];

/** core/brand-ref.json: the house domain, and the brand within it when the house has several. */
export interface BrandRef {
  domain: string;
  brand_id?: string;
  [more: string]: unknown;
}

/** What tells one account of a caller from its others: no two open accounts share it. */
export interface NaturalKey {
  brandDomain: string;
  /** Null: the domain's one brand (a brand reference without brand_id). */
  brandId: string | null;
  operator: string;
  sandbox: boolean;
}

/** What the buyer declares of an account and may change by syncing it again. */
export interface Terms {
  brand: BrandRef;
  billing: string;
  billing_entity: Record<string, unknown> | null;
  payment_terms: string;
}

export interface AccountRow extends Terms {
  seq: number;
  account_id: string;
  owner: string;
  brand_domain: string;
  brand_id: string | null;
  operator: string;
  sandbox: boolean;
  status: AccountStatus;
  created_at: Date;
}

/** Applied when a sync names no payment terms (the request schema leaves them to the seller). */
export const defaultPaymentTerms = 'net_30';

/** Seller-assigned ids: 96 random bits, so one account's id tells nothing of another's. */
const newAccountId = () => `acc_${randomBytes(12).toString('hex')}`;

/**
 * A new account of the owner under its natural key, as this seller opens every account: active
 * (it accepts every billing party and payment terms, and reviews none).
 */
export function newAccount(owner: string, key: NaturalKey, terms: Terms, at: Date): AccountRow {
  return {
    seq: 0,
    account_id: newAccountId(),
    owner,
    brand_domain: key.brandDomain,
    brand_id: key.brandId,
    operator: key.operator,
    sandbox: key.sandbox,
    ...terms,
    status: 'active',
    created_at: at,
  };
}

export { actorOf, ownerOf } from '../../runtime/index.ts';

export function keyOfRow(row: AccountRow): NaturalKey {
  return { brandDomain: row.brand_domain, brandId: row.brand_id, operator: row.operator, sandbox: row.sandbox };
}

export const keyText = (key: NaturalKey) => JSON.stringify([key.brandDomain, key.brandId, key.operator, key.sandbox]);

/** The account as core/account.json shows it (bank details are write-only: never answered). */
export function toAccount(
  row: AccountRow,
): Record<string, unknown> & { account_id: string; status: AccountStatus; sandbox: boolean } {
  return {
    account_id: row.account_id,
    name: nameOf(row),
    status: row.status,
    brand: row.brand,
    operator: row.operator,
    billing: row.billing,
    ...(row.billing_entity ? { billing_entity: withoutBank(row.billing_entity) } : {}),
    payment_terms: row.payment_terms,
    account_scope: 'operator_brand',
    sandbox: row.sandbox,
    ...(row.status === 'pending_approval'
      ? { setup: { message: 'The seller is reviewing this account; it becomes active once approved.' } }
      : {}),
  };
}

/** "Spark c/o pinnacle-media.com (sandbox)": the brand, who operates it when someone else does, and which kind. */
function nameOf(row: AccountRow): string {
  const brand = row.brand_id ?? row.brand_domain;
  const operated = row.operator === row.brand_domain ? brand : `${brand} c/o ${row.operator}`;
  return row.sandbox ? `${operated} (sandbox)` : operated;
}

function withoutBank(entity: Record<string, unknown>): Record<string, unknown> {
  const { bank: _bank, ...shown } = entity;
  return shown;
}
