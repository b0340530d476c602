import { AgentError } from '../../../protocol/errors.ts';
import { type ResolvedAccount, type Tenant, checkPublishedRequest } from '../../runtime/index.ts';
import { ownerOf, toAccount, type AccountStatus, type BrandRef } from './account.ts';
import * as sql from './sql.ts';

/**
 * Resolves a request's `account` (core/account-ref.json) among the caller's own accounts, to
 * core/account.json's fields. By `account_id`: that account, whatever its status (a closed
 * account's delivery can still be read). By natural key: the open account of brand + operator,
 * sandbox meaning production when absent (the schema's default); a reference without brand_id
 * matches the domain's accounts of every brand, so a house of several is ACCOUNT_AMBIGUOUS.
 * Another caller's account is ACCOUNT_NOT_FOUND, exactly as one that does not exist.
 * Status is left to the task: those that buy or spend call `requireActiveAccount`.
 */
export const resolveSalesAccount: NonNullable<Tenant['resolveAccount']> = async (ref, { db, principal }) => {
  checkPublishedRequest('/schemas/3.0.6/core/account-ref.json', ref, 'account');
  const owner = ownerOf(principal);
  if (typeof ref['account_id'] === 'string') {
    const row = await sql.accountById(db, owner, ref['account_id']);
    if (!row) throw new AgentError('ACCOUNT_NOT_FOUND', `You have no account ${ref['account_id']} here; list_accounts shows yours.`, { field: 'account.account_id' });
    return toAccount(row);
  }
  const brand = ref['brand'] as BrandRef;
  const key = { brandDomain: brand.domain, brandId: brand.brand_id ?? null, operator: String(ref['operator']), sandbox: ref['sandbox'] === true };
  const rows = await sql.openAccountsByKey(db, owner, key);
  const [row] = rows;
  if (!row) {
    throw new AgentError('ACCOUNT_NOT_FOUND', `You have no open ${key.sandbox ? 'sandbox' : 'production'} account for ${brand.domain}${brand.brand_id ? ` (${brand.brand_id})` : ''} operated by ${key.operator}.`, {
      field: 'account',
      suggestion: 'Declare it with sync_accounts, or pass an account_id from list_accounts.',
    });
  }
  if (rows.length > 1) {
    throw new AgentError('ACCOUNT_AMBIGUOUS', `${brand.domain} has several brands with accounts operated by ${key.operator}; name the brand_id or pass an account_id.`, {
      field: 'account.brand.brand_id',
      suggestion: 'Add brand.brand_id, or pass the account_id list_accounts gives.',
    });
  }
  return toAccount(row);
};

/**
 * What a task that buys or spends calls on its resolved account: anything but an active account is
 * refused with the catalogue's code for why (pending_approval: ACCOUNT_SETUP_REQUIRED;
 * payment_required: ACCOUNT_PAYMENT_REQUIRED; suspended, closed and rejected: ACCOUNT_SUSPENDED,
 * the message naming which), and a request without one with INVALID_REQUEST.
 */
export function requireActiveAccount(account: ResolvedAccount | undefined): ResolvedAccount {
  if (!account) throw new AgentError('INVALID_REQUEST', 'This task needs an account: pass account.account_id, or brand and operator.', { field: 'account' });
  const status = account['status'] as AccountStatus;
  const details = { account_id: account.account_id, status };
  switch (status) {
    case 'active':
      return account;
    case 'pending_approval':
      return refuse('ACCOUNT_SETUP_REQUIRED', `Account ${account.account_id} is pending the seller's approval.`, { ...details, setup: account['setup'] });
    case 'payment_required':
      return refuse('ACCOUNT_PAYMENT_REQUIRED', `Account ${account.account_id} needs payment before new buys.`, details);
    default:
      return refuse('ACCOUNT_SUSPENDED', `Account ${account.account_id} is ${status}; it cannot be used for new buys.`, details);
  }
}

function refuse(code: 'ACCOUNT_SETUP_REQUIRED' | 'ACCOUNT_PAYMENT_REQUIRED' | 'ACCOUNT_SUSPENDED', message: string, details: Record<string, unknown>): never {
  throw new AgentError(code, message, { field: 'account', details });
}
