import type { Queryable } from '../../db/database.ts';
import { firstRow } from '../../db/first-row.ts';
import type { BudgetState } from './checks/evaluate.ts';
import type { Plan, StoredPlan } from './plans/plan.ts';

/** A governed action (one buy, one activation) and what it has committed against its plan. */
export interface ActionRow {
  action_id: string;
  purchase_type: string;
  status: 'active' | 'suspended' | 'completed';
  committed: number;
  delivered: number;
  check_count: number;
  seller: string | null;
  seller_reference: string | null;
  governance_context: string | null;
}

const planColumns = `id, owner, plan_id, version, plan, plan_hash, status`;
const actionColumns = `action_id, purchase_type, status, committed::float8 as committed, delivered::float8 as delivered,
  check_count, seller, seller_reference, governance_context`;

/** The caller's plan; `lock` holds its row for the rest of the transaction (checks that move budget take turns). */
export async function planOf(
  db: Queryable,
  owner: string,
  planId: string,
  lock = false,
): Promise<StoredPlan | undefined> {
  return firstRow<StoredPlan>(
    db,
    `select ${planColumns} from governance_plans where owner = $1 and plan_id = $2${lock ? ' for update' : ''}`,
    [owner, planId],
  );
}

/** A plan by the agent's own key (a token's `ap_plan`), locked as `planOf`. */
export async function planById(db: Queryable, id: string, lock = false): Promise<StoredPlan | undefined> {
  return firstRow<StoredPlan>(
    db,
    `select ${planColumns} from governance_plans where id = $1${lock ? ' for update' : ''}`,
    [id],
  );
}

export async function plansOf(db: Queryable, owner: string, planIds: readonly string[]): Promise<StoredPlan[]> {
  return db.query<StoredPlan>(
    `select ${planColumns} from governance_plans where owner = $1 and plan_id = any($2::text[]) order by plan_id`,
    [owner, planIds],
  );
}

export async function insertPlan(
  db: Queryable,
  plan: { id: string; owner: string; plan: Plan; planHash: string; at: Date },
): Promise<void> {
  await db.query(
    `insert into governance_plans (id, owner, plan_id, version, plan, plan_hash, status, synced_at)
     values ($1, $2, $3, 1, $4, $5, 'active', $6)`,
    [plan.id, plan.owner, plan.plan.plan_id, JSON.stringify(plan.plan), plan.planHash, plan.at],
  );
}

/** A new revision of a plan: its version moves on; the budget it has committed stays. */
export async function revisePlan(db: Queryable, id: string, plan: Plan, planHash: string, at: Date): Promise<number> {
  const [row] = await db.query<{ version: number }>(
    `update governance_plans set version = version + 1, plan = $2, plan_hash = $3, synced_at = $4 where id = $1 returning version`,
    [id, JSON.stringify(plan), planHash, at],
  );
  return row!.version;
}

/**
 * Where a plan's budget stands, one action left out (its own reservation is what a check replaces):
 * what the others committed and delivered, what those of `seller` committed, and what it has.
 */
export async function budgetState(
  db: Queryable,
  plan: string,
  actionId: string,
  seller: string | null,
): Promise<BudgetState> {
  const [row] = await db.query<BudgetState>(
    `select coalesce(sum(committed) filter (where others), 0)::float8 as "committedByOthers",
            coalesce(sum(committed) filter (where others and seller = $3), 0)::float8 as "committedBySellerOthers",
            coalesce(sum(delivered) filter (where others), 0)::float8 as "deliveredByOthers",
            coalesce(sum(committed) filter (where action_id = $2), 0)::float8 as "committedByAction"
       from (select *, action_id <> $2 and status <> 'completed' as others from governance_actions where plan = $1) actions`,
    [plan, actionId, seller],
  );
  return row!;
}

export async function actionsOf(db: Queryable, plan: string): Promise<ActionRow[]> {
  return db.query<ActionRow>(
    `select ${actionColumns} from governance_actions where plan = $1 order by created_at, action_id`,
    [plan],
  );
}

export async function actionOf(db: Queryable, plan: string, actionId: string): Promise<ActionRow | undefined> {
  return firstRow<ActionRow>(db, `select ${actionColumns} from governance_actions where plan = $1 and action_id = $2`, [
    plan,
    actionId,
  ]);
}

export async function insertAction(
  db: Queryable,
  action: { plan: string; actionId: string; purchaseType: string; at: Date },
): Promise<void> {
  await db.query(
    `insert into governance_actions (plan, action_id, purchase_type, status, created_at) values ($1, $2, $3, 'active', $4)`,
    [action.plan, action.actionId, action.purchaseType, action.at],
  );
}

/** What a check or an outcome changed of an action; fields left out stay. */
export interface ActionChange {
  status?: ActionRow['status'];
  committed?: number;
  delivered?: number;
  seller?: string;
  sellerReference?: string;
  governanceContext?: string;
  checked?: boolean;
}

export async function updateAction(db: Queryable, plan: string, actionId: string, change: ActionChange): Promise<void> {
  await db.query(
    `update governance_actions set
       status = coalesce($3, status),
       committed = coalesce($4, committed),
       delivered = coalesce($5, delivered),
       seller = coalesce($6, seller),
       seller_reference = coalesce($7, seller_reference),
       governance_context = coalesce($8, governance_context),
       check_count = check_count + $9
     where plan = $1 and action_id = $2`,
    [
      plan,
      actionId,
      change.status ?? null,
      change.committed ?? null,
      change.delivered ?? null,
      change.seller ?? null,
      change.sellerReference ?? null,
      change.governanceContext ?? null,
      change.checked ? 1 : 0,
    ],
  );
}

export async function appendLog(
  db: Queryable,
  entry: { id: string; plan: string; type: 'check' | 'outcome'; at: Date; entry: Record<string, unknown> },
): Promise<void> {
  await db.query(`insert into governance_log (id, plan, type, at, entry) values ($1, $2, $3, $4, $5)`, [
    entry.id,
    entry.plan,
    entry.type,
    entry.at,
    JSON.stringify(entry.entry),
  ]);
}

/** Several entries in one statement, in the order given (arrays unnested: a quarter of jsonb_to_recordset's cost). */
export async function appendLogs(
  db: Queryable,
  entries: ReadonlyArray<{
    id: string;
    plan: string;
    type: 'check' | 'outcome';
    at: Date;
    entry: Record<string, unknown>;
  }>,
): Promise<void> {
  if (entries.length === 0) return;
  await db.query(
    `insert into governance_log (id, plan, type, at, entry)
     select * from unnest($1::text[], $2::uuid[], $3::text[], $4::timestamptz[], $5::jsonb[])`,
    [
      entries.map((e) => e.id),
      entries.map((e) => e.plan),
      entries.map((e) => e.type),
      entries.map((e) => e.at.toISOString()),
      entries.map((e) => JSON.stringify(e.entry)),
    ],
  );
}

/** The newest `limit` entries of a plan's log, oldest first. */
export async function logOf(db: Queryable, plan: string, limit: number): Promise<Array<Record<string, unknown>>> {
  const rows = await db.query<{ entry: Record<string, unknown> }>(
    `select entry from (select entry, seq from governance_log where plan = $1 order by seq desc limit $2) newest order by seq`,
    [plan, limit],
  );
  return rows.map((r) => r.entry);
}

/** How many checks and outcomes a plan's log holds, by type and decision, and the findings they carry. */
export interface LogCounts {
  checks: number;
  outcomes: number;
  approved: number;
  denied: number;
  conditions: number;
  findings: number;
}

export async function logCounts(db: Queryable, plan: string): Promise<LogCounts> {
  const [row] = await db.query<LogCounts>(
    `select count(*) filter (where type = 'check')::int as checks,
            count(*) filter (where type = 'outcome')::int as outcomes,
            count(*) filter (where entry->>'status' = 'approved')::int as approved,
            count(*) filter (where entry->>'status' = 'denied')::int as denied,
            count(*) filter (where entry->>'status' = 'conditions')::int as conditions,
            coalesce(sum(jsonb_array_length(coalesce(entry->'findings', '[]'::jsonb))), 0)::int as findings
       from governance_log where plan = $1`,
    [plan],
  );
  return row!;
}
