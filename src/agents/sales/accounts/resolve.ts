import { AgentError } from '../../../protocol/errors.ts';
import type { Database, Queryable } from '../../../db/database.ts';
import type { Principal } from '../../../auth/index.ts';
import type { AccountUse, ResolvedAccount, Tenant } from '../../runtime/index.ts';
import {
  actorOf,
  defaultPaymentTerms,
  newAccount,
  ownerOf,
  toAccount,
  type AccountRow,
  type AccountStatus,
  type BrandRef,
  type NaturalKey,
  type Terms,
} from './account.ts';
import * as sql from './sql.ts';

/** How the seller models accounts (get_ap_capabilities `account.require_operator_auth`). */
export interface AccountModel {
  /**
   * true: explicit accounts, only those declared with sync_accounts (or given by the seller) are
   * known, any other reference is ACCOUNT_NOT_FOUND. false: implicit accounts, the caller's claim is
   * trusted and a natural key it names without having declared it is the declaration itself.
   */
  requireOperatorAuth: boolean;
}

/**
 * get_ap_capabilities' `account` of an agent whose accounts are these (the sales agent's and the
 * signals agent's, one account book): the model, the parties sync_accounts bills, products
 * discoverable without an account, and sandbox accounts.
 */
export function accountCapabilities({ requireOperatorAuth }: AccountModel) {
  return {
    require_operator_auth: requireOperatorAuth,
    supported_billing: ['operator', 'agent', 'advertiser'],
    required_for_products: false,
    sandbox: true,
  };
}

/**
 * Resolves a request's `account` (core/account-ref.json, which the runner has checked it against)
 * among the caller's own accounts, to core/account.json's fields. By `account_id`: that account,
 * whatever its status (a closed account's delivery can still be read). By natural key: the open account of brand + operator,
 * sandbox meaning production when absent (the schema's default); a reference without brand_id
 * matches the domain's accounts of every brand, so a house of several is ACCOUNT_AMBIGUOUS.
 * Another caller's account is ACCOUNT_NOT_FOUND, exactly as one that does not exist; its natural
 * key, named by this caller, is this caller's own (other) account.
 *
 * A natural key no open account holds: with implicit accounts, a task that acts on it declares it
 * (recorded as sync_accounts records a new account, `implicitTerms`), a task that reads under it
 * reads an account that holds nothing yet (`undeclared`, whose id matches no row), and a task it
 * only informs (get_products) never fails on it, nor on an unknown id; with explicit accounts,
 * ACCOUNT_NOT_FOUND but for tasks it only informs.
 * Status is left to the task: those that buy or spend call `requireActiveAccount`.
 */
export function salesAccountResolver({ requireOperatorAuth }: AccountModel): NonNullable<Tenant['resolveAccount']> {
  return async (ref, { db, principal, use = 'reads', now = new Date() }) => {
    try {
      return await resolve(ref, db, principal, use, !requireOperatorAuth, now);
    } catch (err) {
      // What only colours an answer cannot make it fail: the reference as it reads.
      if (use === 'informs' && err instanceof AgentError) return asNamed(ref);
      throw err;
    }
  };
}

async function resolve(
  ref: Record<string, unknown>,
  db: Queryable,
  principal: Principal,
  use: AccountUse,
  implicit: boolean,
  now: Date,
): Promise<ResolvedAccount> {
  const owner = ownerOf(principal);
  if (typeof ref['account_id'] === 'string') {
    const row = await sql.accountById(db, owner, ref['account_id']);
    if (!row)
      throw new AgentError(
        'ACCOUNT_NOT_FOUND',
        `You have no account ${ref['account_id']} here; list_accounts shows yours.`,
        { field: 'account.account_id' },
      );
    return toAccount(row);
  }
  const brand = ref['brand'] as BrandRef;
  const key = keyOfRef(ref);
  const found = await openAccount(db, owner, key);
  if (found) return toAccount(found);
  if (implicit && use === 'acts')
    return toAccount(await declare(db, owner, key, brand, { by: actorOf(principal), at: now }));
  if (implicit) return asNamed(ref);
  throw new AgentError(
    'ACCOUNT_NOT_FOUND',
    `You have no open ${key.sandbox ? 'sandbox' : 'production'} account for ${brand.domain}${brand.brand_id ? ` (${brand.brand_id})` : ''} operated by ${key.operator}.`,
    {
      field: 'account',
      suggestion: 'Declare it with sync_accounts, or pass an account_id from list_accounts.',
    },
  );
}

/** The open account of the key; undefined when there is none, ACCOUNT_AMBIGUOUS when a key without brand_id matches several brands. */
async function openAccount(db: Queryable, owner: string, key: NaturalKey): Promise<AccountRow | undefined> {
  const rows = await sql.openAccountsByKey(db, owner, key);
  if (rows.length > 1) {
    throw new AgentError(
      'ACCOUNT_AMBIGUOUS',
      `${key.brandDomain} has several brands with accounts operated by ${key.operator}; name the brand_id or pass an account_id.`,
      {
        field: 'account.brand.brand_id',
        suggestion: 'Add brand.brand_id, or pass the account_id list_accounts gives.',
      },
    );
  }
  return rows[0];
}

/**
 * Records the key as the owner's new account, as sync_accounts would (same row, same `created`
 * change, same status), under the lock sync_accounts takes: of two first calls at once, the
 * second finds the account the first made. Outside a transaction (a task that writes nothing
 * else) it opens its own, so the lock holds until the account is there.
 */
async function declare(
  db: Queryable,
  owner: string,
  key: NaturalKey,
  brand: BrandRef,
  change: sql.Change,
): Promise<AccountRow> {
  const write = async (tx: Queryable) => {
    await sql.lockOwner(tx, owner);
    const found = await openAccount(tx, owner, key);
    if (found) return found;
    const row = newAccount(owner, key, implicitTerms(brand), change.at);
    await sql.insertAccount(tx, row, change);
    return row;
  };
  return isDatabase(db) ? db.transaction(write) : write(db);
}

/**
 * What a reference declares of an account's terms: its brand; the rest is the seller's default,
 * as a sync naming no more would get. Billing is the agent's (the party the seller trusts and
 * that named the account; a later sync_accounts says otherwise when it is not).
 */
export function implicitTerms(brand: BrandRef): Terms {
  return { brand, billing: 'agent', billing_entity: null, payment_terms: defaultPaymentTerms };
}

const isDatabase = (db: Queryable): db is Database => typeof (db as Partial<Database>).transaction === 'function';

function keyOfRef(ref: Record<string, unknown>): NaturalKey {
  const brand = ref['brand'] as BrandRef;
  return {
    brandDomain: brand.domain,
    brandId: brand.brand_id ?? null,
    operator: String(ref['operator']),
    sandbox: ref['sandbox'] === true,
  };
}

/**
 * A reference that names no recorded account, as the task reads it: what it says (its brand,
 * operator, sandbox), active as a declaration of it would be, under an id no account has (ids
 * are `acc_…`), so what is listed under it is nothing.
 */
function asNamed(ref: Record<string, unknown>): ResolvedAccount {
  if (typeof ref['account_id'] === 'string') return { account_id: ref['account_id'], sandbox: false, undeclared: true };
  const key = keyOfRef(ref);
  return {
    account_id: `undeclared:${key.brandDomain}${key.brandId ? `/${key.brandId}` : ''}@${key.operator}${key.sandbox ? ':sandbox' : ''}`,
    brand: ref['brand'],
    operator: key.operator,
    status: 'active',
    sandbox: key.sandbox,
    undeclared: true,
  };
}

/**
 * What a task that buys or spends calls on its resolved account: anything but an active account is
 * refused with the catalogue's code for why (pending_approval: ACCOUNT_SETUP_REQUIRED;
 * payment_required: ACCOUNT_PAYMENT_REQUIRED; suspended, closed and rejected: ACCOUNT_SUSPENDED,
 * the message naming which), and a request without one with INVALID_REQUEST.
 */
export function requireActiveAccount(account: ResolvedAccount | undefined): ResolvedAccount {
  if (!account)
    throw new AgentError(
      'INVALID_REQUEST',
      'This task needs an account: pass account.account_id, or brand and operator.',
      { field: 'account' },
    );
  const status = account['status'] as AccountStatus;
  const details = { account_id: account.account_id, status };
  switch (status) {
    case 'active':
      return account;
    case 'pending_approval':
      return refuse('ACCOUNT_SETUP_REQUIRED', `Account ${account.account_id} is pending the seller's approval.`, {
        ...details,
        setup: account['setup'],
      });
    case 'payment_required':
      return refuse(
        'ACCOUNT_PAYMENT_REQUIRED',
        `Account ${account.account_id} needs payment before new buys.`,
        details,
      );
    default:
      return refuse(
        'ACCOUNT_SUSPENDED',
        `Account ${account.account_id} is ${status}; it cannot be used for new buys.`,
        details,
      );
  }
}

function refuse(
  code: 'ACCOUNT_SETUP_REQUIRED' | 'ACCOUNT_PAYMENT_REQUIRED' | 'ACCOUNT_SUSPENDED',
  message: string,
  details: Record<string, unknown>,
): never {
  throw new AgentError(code, message, { field: 'account', details });
}
