import type { Queryable } from '../../db/database.ts';
import { firstRow } from '../../db/first-row.ts';

/** Whose rows: the selling agent and the buyer (runtime/owner.ts). */
export interface Seller {
  tenant: string;
  owner: string;
}

export interface AgentRow {
  url: string;
  credentials: string;
  categories: string[] | null;
}

export interface ActionRow {
  tenant: string;
  action_id: string;
  owner: string;
  account_id: string;
  plan_id: string;
  agent_url: string;
  governance_context: string;
  next_check_at: Date | null;
  created_at: Date;
  reported_spend: string | null;
  reported_until: Date | null;
  state: 'approved' | 'halted';
}

export interface TokenRecord {
  jti: string;
  iss: string;
  aud: string | undefined;
  sub: string;
  phase: string;
  outcome: string;
  token: string;
}

/** The governance agents registered for an account, in the order the buyer gave them. */
export function agentsOf(db: Queryable, seller: Seller, accountId: string): Promise<AgentRow[]> {
  return db.query<AgentRow>(
    `select url, credentials, categories from seller_governance_agents
      where tenant = $1 and owner = $2 and account_id = $3 order by position`,
    [seller.tenant, seller.owner, accountId],
  );
}

/** Replaces the account's governance agents with these (none: the account is no longer governed). */
export async function replaceAgents(
  tx: Queryable,
  seller: Seller,
  accountId: string,
  agents: readonly AgentRow[],
  now: Date,
): Promise<void> {
  await tx.query(`delete from seller_governance_agents where tenant = $1 and owner = $2 and account_id = $3`, [
    seller.tenant,
    seller.owner,
    accountId,
  ]);
  for (const [position, agent] of agents.entries()) {
    await tx.query(
      `insert into seller_governance_agents (tenant, owner, account_id, position, url, credentials, categories, synced_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        seller.tenant,
        seller.owner,
        accountId,
        position,
        agent.url,
        agent.credentials,
        agent.categories && JSON.stringify(agent.categories),
        now,
      ],
    );
  }
}

/** Whether a token of this jti was accepted or issued before. */
export async function tokenSeen(db: Queryable, jti: string): Promise<boolean> {
  const rows = await db.query(`select 1 from seller_governance_tokens where jti = $1`, [jti]);
  return rows.length > 0;
}

/** The action a token was kept for. */
export async function actionOfToken(db: Queryable, tenant: string, jti: string): Promise<string | undefined> {
  const [row] = await db.query<{ action_id: string }>(
    `select action_id from seller_governance_tokens where tenant = $1 and jti = $2`,
    [tenant, jti],
  );
  return row?.action_id;
}

export async function recordToken(
  tx: Queryable,
  tenant: string,
  actionId: string,
  token: TokenRecord,
  now: Date,
): Promise<void> {
  await tx.query(
    `insert into seller_governance_tokens (jti, tenant, action_id, iss, aud, sub, phase, outcome, token, accepted_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) on conflict (jti) do nothing`,
    [
      token.jti,
      tenant,
      actionId,
      token.iss,
      token.aud ?? null,
      token.sub,
      token.phase,
      token.outcome,
      token.token,
      now,
    ],
  );
}

/** The tokens kept for an action, oldest first. */
export function tokensOf(
  db: Queryable,
  tenant: string,
  actionId: string,
): Promise<Array<TokenRecord & { accepted_at: Date }>> {
  return db.query(
    `select jti, iss, aud, sub, phase, outcome, token, accepted_at from seller_governance_tokens
      where tenant = $1 and action_id = $2 order by accepted_at, jti`,
    [tenant, actionId],
  );
}

export async function insertAction(
  tx: Queryable,
  row: Omit<ActionRow, 'reported_spend' | 'reported_until' | 'state'>,
): Promise<void> {
  await tx.query(
    `insert into seller_governed_actions (tenant, action_id, owner, account_id, plan_id, agent_url, governance_context, next_check_at, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      row.tenant,
      row.action_id,
      row.owner,
      row.account_id,
      row.plan_id,
      row.agent_url,
      row.governance_context,
      row.next_check_at,
      row.created_at,
    ],
  );
}

export async function actionOf(db: Queryable, tenant: string, actionId: string): Promise<ActionRow | undefined> {
  return firstRow<ActionRow>(db, `select * from seller_governed_actions where tenant = $1 and action_id = $2`, [
    tenant,
    actionId,
  ]);
}

/** The approved actions of the tenant, in action order after `after`: the delivery pass looks at each. */
export function approvedActions(db: Queryable, tenant: string, after: string, limit: number): Promise<ActionRow[]> {
  return db.query<ActionRow>(
    `select * from seller_governed_actions where tenant = $1 and state = 'approved' and action_id > $2
      order by action_id limit $3`,
    [tenant, after, limit],
  );
}

/** What a delivery report changed: the spend reported, the agent's next expected report, the latest token, and whether delivery halted. */
export async function recordReport(
  db: Queryable,
  tenant: string,
  actionId: string,
  report: {
    spend: number;
    until: Date;
    nextCheckAt: Date | null;
    governanceContext: string | undefined;
    halted: boolean;
  },
): Promise<void> {
  await db.query(
    `update seller_governed_actions
        set reported_spend = $3, reported_until = $4, next_check_at = $5, governance_context = coalesce($6, governance_context),
            state = case when $7 then 'halted' else state end
      where tenant = $1 and action_id = $2`,
    [tenant, actionId, report.spend, report.until, report.nextCheckAt, report.governanceContext ?? null, report.halted],
  );
}

/** A change approved: the action's latest token and next report, and it is approved again (a halted one resumes its reports). */
export async function approveAgain(
  tx: Queryable,
  tenant: string,
  actionId: string,
  governanceContext: string,
  nextCheckAt: Date | null,
): Promise<void> {
  await tx.query(
    `update seller_governed_actions set governance_context = $3, next_check_at = $4, state = 'approved'
      where tenant = $1 and action_id = $2`,
    [tenant, actionId, governanceContext, nextCheckAt],
  );
}
