import type { Queryable } from '../../../db/database.ts';
import type { AccountStatus } from './account.ts';
import * as sql from './sql.ts';

export { accountStatuses, actorOf, ownerOf, type AccountStatus } from './account.ts';
export { listAccountsTask } from './list-accounts.ts';
export {
  accountCapabilities,
  implicitTerms,
  requireActiveAccount,
  salesAccountResolver,
  type AccountModel,
} from './resolve.ts';
export { syncAccountsTask } from './sync-accounts.ts';
export type { Change } from './sql.ts';

/**
 * The seller's own move of an account to another status (approving, suspending, closing), recorded
 * with who made it and when; false when there is no such account. Buyers never reach this: their
 * syncs keep whatever status the seller set.
 */
export function setAccountStatus(
  db: Queryable,
  accountId: string,
  status: AccountStatus,
  change: sql.Change,
): Promise<boolean> {
  return sql.setStatus(db, accountId, status, change);
}

/** The owner's account, locked until the transaction ends (a seller's change reads the status it replaces); undefined when it has none of that id. */
export function lockAccount(tx: Queryable, owner: string, accountId: string) {
  return sql.lockAccount(tx, owner, accountId);
}

/** Every change of an account, oldest first: what it was (created, updated, closed, status), the status after it, who and when. */
export function accountHistory(db: Queryable, accountId: string) {
  return sql.changesOf(db, accountId);
}
