import type { Queryable } from '../../../db/database.ts';
import { firstRow } from '../../../db/first-row.ts';
import { keysetQuery, type KeysetReader } from '../../runtime/index.ts';
import type { AccountRow, AccountStatus, NaturalKey, Terms } from './account.ts';

/** Who made a change and when, recorded in `sales_account_changes` by the statement that makes it. */
export interface Change {
  by: string;
  at: Date;
}

const columns =
  'seq, account_id, owner, brand_domain, brand_id, operator, sandbox, brand, billing, billing_entity, payment_terms, status, created_at';

// Each write records its change in the same statement: the row and its history never disagree.
const recorded = (kind: string, byParam: number, atParam: number) =>
  `insert into sales_account_changes (account_id, change, status, changed_by, changed_at) select account_id, '${kind}', status, $${byParam}, $${atParam} from written`;

/** An account's terms as the columns brand, billing, billing_entity and payment_terms take them, in that order. */
const termsParams = (terms: Terms) => [
  JSON.stringify(terms.brand),
  terms.billing,
  terms.billing_entity === null ? null : JSON.stringify(terms.billing_entity),
  terms.payment_terms,
];

/**
 * Serializes the syncs of one owner until the transaction ends, so two of them never both decide
 * that an account is new (the second would then break the natural key's unique index).
 */
export async function lockOwner(tx: Queryable, owner: string): Promise<void> {
  await tx.query(`select pg_advisory_xact_lock(hashtextextended($1, 0))`, [JSON.stringify(['sales_accounts', owner])]);
}

/** The owner's accounts that still hold their natural key (all but the closed ones), oldest first. */
export async function openAccounts(db: Queryable, owner: string): Promise<AccountRow[]> {
  return db.query<AccountRow>(
    `select ${columns} from sales_accounts where owner = $1 and status <> 'closed' order by seq`,
    [owner],
  );
}

export async function accountById(db: Queryable, owner: string, accountId: string): Promise<AccountRow | undefined> {
  return firstRow<AccountRow>(db, `select ${columns} from sales_accounts where owner = $1 and account_id = $2`, [
    owner,
    accountId,
  ]);
}

/** The owner's account, locked until the transaction ends: a change of its status reads the status it replaces. */
export async function lockAccount(tx: Queryable, owner: string, accountId: string): Promise<AccountRow | undefined> {
  return firstRow<AccountRow>(
    tx,
    `select ${columns} from sales_accounts where owner = $1 and account_id = $2 for update`,
    [owner, accountId],
  );
}

/** Open accounts of the natural key; a key without brand id matches the domain's accounts of any brand. At most two: one is an answer, two are too many. */
export async function openAccountsByKey(db: Queryable, owner: string, key: NaturalKey): Promise<AccountRow[]> {
  return db.query<AccountRow>(
    `select ${columns} from sales_accounts
     where owner = $1 and brand_domain = $2 and ($3::text is null or brand_id = $3) and operator = $4 and sandbox = $5 and status <> 'closed'
     order by seq limit 2`,
    [owner, key.brandDomain, key.brandId, key.operator, key.sandbox],
  );
}

export async function insertAccount(tx: Queryable, row: AccountRow, change: Change): Promise<void> {
  await tx.query(
    `with written as (
       insert into sales_accounts (account_id, owner, brand_domain, brand_id, operator, sandbox, brand, billing, billing_entity, payment_terms, status, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) returning account_id, status
     ) ${recorded('created', 13, 14)}`,
    [
      row.account_id,
      row.owner,
      row.brand_domain,
      row.brand_id,
      row.operator,
      row.sandbox,
      ...termsParams(row),
      row.status,
      row.created_at,
      change.by,
      change.at,
    ],
  );
}

export async function updateTerms(tx: Queryable, accountId: string, terms: Terms, change: Change): Promise<void> {
  await tx.query(
    `with written as (
       update sales_accounts set brand = $2, billing = $3, billing_entity = $4, payment_terms = $5 where account_id = $1 returning account_id, status
     ) ${recorded('updated', 6, 7)}`,
    [accountId, ...termsParams(terms), change.by, change.at],
  );
}

/** Sets an account's status; false when there is no such account. A move to `closed` is recorded as a closing. */
export async function setStatus(
  db: Queryable,
  accountId: string,
  status: AccountStatus,
  change: Change,
): Promise<boolean> {
  const rows = await db.query(
    `with written as (update sales_accounts set status = $2 where account_id = $1 returning account_id, status)
     ${recorded(status === 'closed' ? 'closed' : 'status', 3, 4)} returning account_id`,
    [accountId, status, change.by, change.at],
  );
  return rows.length > 0;
}

export interface ListFilters {
  status?: AccountStatus;
  sandbox?: boolean;
}

/** The owner's accounts matching the filters, in the order they were made, as list_accounts pages them. */
export const accountList = (db: Queryable, owner: string, filters: ListFilters): KeysetReader<AccountRow> =>
  keysetQuery<AccountRow>(db, {
    table: 'sales_accounts',
    columns,
    where: `owner = $1 and ($2::text is null or status = $2) and ($3::boolean is null or sandbox = $3)`,
    params: [owner, filters.status ?? null, filters.sandbox ?? null],
  });

/** An account's changes, oldest first. */
export async function changesOf(
  db: Queryable,
  accountId: string,
): Promise<Array<{ change: string; status: AccountStatus; changed_by: string; changed_at: Date }>> {
  return db.query(
    `select change, status, changed_by, changed_at from sales_account_changes where account_id = $1 order by id`,
    [accountId],
  );
}
