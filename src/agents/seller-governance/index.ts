import type { Database, Queryable } from '../../db/database.ts';
import type { SafeFetch } from '../../net/safe-fetch.ts';
import { fetchThrough } from '../../client/index.ts';
import type { Clock } from '../../clock.ts';
import { AgentError } from '../../protocol/errors.ts';
import { IssuerKeys } from '../governance/index.ts';
import {
  ownerOf,
  unseal,
  type PrepareContext,
  type ResolvedAccount,
  type Tenant,
  type TenantPass,
} from '../runtime/index.ts';
import { askGovernance, type GovernanceAgent } from './ask-governance.ts';
import { verifyIntent } from './intent-token.ts';
import * as sql from './sql.ts';
import { syncGovernanceTask } from './sync-governance.ts';

type Json = Record<string, unknown>;

export interface SellerGovernanceOptions {
  /** The selling agent (`sales`, `signals`): whose registrations and records these are. */
  tenant: string;
  /** The selling agent's MCP URL: the audience of the tokens it accepts, and the `caller` of its checks. */
  seller: () => string;
  /** Reads the governance agents' keys and calls them: the SSRF-safe client. */
  fetcher: SafeFetch;
  /** Seals the credentials buyers give for their governance agents (the deployment's AP_SIGNING_KEY_SECRET). */
  secret: string | undefined;
  clock: Clock;
  /** The selling agent's account resolution: a buyer registers, and is checked on, its own accounts only. */
  resolveAccount: NonNullable<Tenant['resolveAccount']>;
}

/** A governed spend the buyer's governance agent approved: what the seller records with the action it commits. */
export interface Approval {
  accountId: string;
  planId: string;
  agentUrl: string;
  intent: sql.TokenRecord;
  execution: sql.TokenRecord;
  nextCheckAt: Date | null;
}

/** What a purchase is checked with: the account, the plan, the buyer's token, and the seller's planned delivery. */
export interface PurchaseRequest {
  account?: unknown;
  plan_id?: unknown;
  governance_context?: unknown;
}

/** A governed action: whose, and its id (a media buy's, an activation's). */
export interface GovernedAction {
  owner: string;
  action_id: string;
}

/** What a change of a governed action asks its governance agent to approve (phase `modification`). */
export interface Change {
  /** The seller's planned delivery after the change (core/planned-delivery.json). */
  planned: Json;
  /** What changed, in words (`modification_summary`). */
  summary: string;
  /** The change commits more spend than the action held: a spend-commit, which needs the buyer's intent token. */
  commitsMore: boolean;
}

/** A change its governance agent approved: what the seller records with it. */
export interface ChangeApproval {
  actionId: string;
  intent: sql.TokenRecord | undefined;
  execution: sql.TokenRecord;
  nextCheckAt: Date | null;
}

/** How a selling agent reads an action's delivery for its governance reports, and stops one that is denied. */
export interface DeliveryOf {
  /** What the owner's action has delivered so far; undefined when it is gone. */
  spendOf(
    db: Queryable,
    action: GovernedAction,
    now: Date,
  ): Promise<{ spend: number; impressions: number } | undefined>;
  /** Stops delivering the action (a delivery check was denied), in the transaction that records it. */
  halt(tx: Queryable, action: GovernedAction, reason: string, now: Date): Promise<void>;
}

/** How many governed actions one delivery pass reports on, per batch. */
const batch = 100;

/**
 * A selling agent as a governance-aware seller (governance/campaign, seller enforcement): buyers
 * register their governance agents per account (`sync_governance`); before an action commits spend
 * on a governed account the seller verifies the buyer's intent token and runs its own execution
 * check on the issuing agent (`checkPurchase`, before the call's transaction opens), records the
 * tokens with the action (`recordApproval`, in it), and reports delivery as the agent asks
 * (`deliveryPass`), halting an action whose delivery is denied.
 */
export class SellerGovernance {
  readonly #o: SellerGovernanceOptions;
  readonly #keys: IssuerKeys;
  readonly #fetch: typeof globalThis.fetch;

  constructor(options: SellerGovernanceOptions) {
    this.#o = options;
    this.#keys = new IssuerKeys(options.fetcher, options.clock);
    this.#fetch = fetchThrough(options.fetcher);
  }

  syncGovernanceTask() {
    return syncGovernanceTask(this.#o);
  }

  /**
   * Checks a spend-commit on the account before it is made: undefined when the account is not
   * governed; else the approval to record, or the AgentError to answer (PERMISSION_DENIED for a
   * missing or bad token, GOVERNANCE_DENIED, GOVERNANCE_UNAVAILABLE, PLAN_NOT_FOUND,
   * CAMPAIGN_SUSPENDED). `planned` says what the seller will deliver, asked only when governed.
   */
  async checkPurchase(
    request: PurchaseRequest,
    ctx: PrepareContext,
    planned: (account: ResolvedAccount) => Promise<Json>,
  ): Promise<Approval | undefined> {
    const account = await this.#accountOf(request.account, ctx);
    if (!account) return undefined;
    const owner = ownerOf(ctx.principal);
    const agents = await sql.agentsOf(ctx.db, { tenant: this.#o.tenant, owner }, account.account_id);
    if (agents.length === 0) return undefined;
    if (typeof request.plan_id !== 'string' || request.plan_id === '')
      throw new AgentError('INVALID_REQUEST', 'This account is under campaign governance: name the plan_id.', {
        field: 'plan_id',
      });
    const now = this.#o.clock.now();
    const seller = this.#o.seller();
    const claims = await verifyIntent(request.governance_context, {
      registered: agents.map((a) => a.url),
      seller,
      planId: request.plan_id,
      keys: this.#keys,
      now,
    });
    // A token is used once: a retry of the same call is answered from its idempotency record before this.
    if (await sql.tokenSeen(ctx.db, claims.jti))
      throw new AgentError('PERMISSION_DENIED', 'This governance_context was already used for another request.', {
        field: 'governance_context',
      });
    const agent = agents.find((a) => a.url === claims.iss)!;
    const verdict = await askGovernance(this.#agentOf(agent), this.#fetch, {
      plan_id: request.plan_id,
      caller: seller,
      governance_context: request.governance_context,
      phase: 'purchase',
      planned_delivery: await planned(account),
    });
    refuseUnapproved(verdict, agent.url);
    const token = verdict['governance_context'] as string;
    return {
      accountId: account.account_id,
      planId: request.plan_id,
      agentUrl: agent.url,
      intent: tokenRecord(request.governance_context as string, { ...claims }, 'approved'),
      execution: tokenRecord(token, readClaims(token), 'approved'),
      nextCheckAt: typeof verdict['next_check'] === 'string' ? new Date(verdict['next_check']) : null,
    };
  }

  /**
   * Checks a change of a governed action before it is made (update_media_buy: phase
   * `modification`): undefined when the action is not governed or `change` says there is nothing
   * its governance agent needs to see (no spend or flight moved, nothing resumed). A change that
   * commits more needs the buyer's intent token, as a purchase does; every check carries the
   * action's own token. Refusals are checkPurchase's.
   */
  async checkChange(
    request: PurchaseRequest & { actionId: string },
    ctx: PrepareContext,
    change: (action: sql.ActionRow, account: ResolvedAccount) => Promise<Change | undefined>,
  ): Promise<ChangeApproval | undefined> {
    const { actionId, governance_context: token } = request;
    const action = await sql.actionOf(ctx.db, this.#o.tenant, actionId);
    if (!action || action.owner !== ownerOf(ctx.principal)) return undefined;
    // Another account's buy is refused by the call itself.
    const account = await this.#accountOf(request.account, ctx);
    if (account?.account_id !== action.account_id) return undefined;
    const agents = await sql.agentsOf(ctx.db, action, action.account_id);
    const agent = agents.find((a) => a.url === action.agent_url);
    if (!agent) return undefined;
    const asked = await change(action, account);
    if (!asked) return undefined;
    const seller = this.#o.seller();
    let intent: sql.TokenRecord | undefined;
    if (asked.commitsMore) {
      const claims = await verifyIntent(token, {
        registered: agents.map((a) => a.url),
        seller,
        planId: action.plan_id,
        keys: this.#keys,
        now: this.#o.clock.now(),
      });
      if (await sql.tokenSeen(ctx.db, claims.jti))
        throw new AgentError('PERMISSION_DENIED', 'This governance_context was already used for another request.', {
          field: 'governance_context',
        });
      intent = tokenRecord(token as string, { ...claims }, 'approved');
    }
    const verdict = await askGovernance(this.#agentOf(agent), this.#fetch, {
      plan_id: action.plan_id,
      caller: seller,
      governance_context: action.governance_context,
      phase: 'modification',
      planned_delivery: asked.planned,
      modification_summary: asked.summary.slice(0, 2000),
    });
    refuseUnapproved(verdict, agent.url);
    const issued = verdict['governance_context'] as string;
    return {
      actionId,
      intent,
      execution: tokenRecord(issued, readClaims(issued), 'approved'),
      nextCheckAt: typeof verdict['next_check'] === 'string' ? new Date(verdict['next_check']) : null,
    };
  }

  /** Records an approved change, in the transaction that makes it: its tokens, and the action's latest token and standing. */
  async recordChange(tx: Queryable, approval: ChangeApproval): Promise<void> {
    const now = this.#o.clock.now();
    for (const token of [approval.intent, approval.execution])
      if (token) await sql.recordToken(tx, this.#o.tenant, approval.actionId, token, now);
    await sql.approveAgain(tx, this.#o.tenant, approval.actionId, approval.execution.token, approval.nextCheckAt);
  }

  /** Records an approved action, in the transaction that commits it: its governance and both tokens. */
  async recordApproval(tx: Queryable, owner: string, actionId: string, approval: Approval): Promise<void> {
    const now = this.#o.clock.now();
    await sql.insertAction(tx, {
      tenant: this.#o.tenant,
      action_id: actionId,
      owner,
      account_id: approval.accountId,
      plan_id: approval.planId,
      agent_url: approval.agentUrl,
      governance_context: approval.execution.token,
      next_check_at: approval.nextCheckAt,
      created_at: now,
    });
    for (const token of [approval.intent, approval.execution])
      await sql.recordToken(tx, this.#o.tenant, actionId, token, now);
  }

  /**
   * The action an intent token was accepted for, when it was: a deferred buy, booked by a worker
   * after the call that checked it, takes the id its approval is bound to.
   */
  async actionApproved(db: Queryable, token: unknown): Promise<string | undefined> {
    if (typeof token !== 'string') return undefined;
    const jti = readClaims(token)['jti'];
    return typeof jti === 'string' ? sql.actionOfToken(db, this.#o.tenant, jti) : undefined;
  }

  /** The governance tokens kept for an action, oldest first (the seller's side of the audit trail). */
  tokensOf(db: Queryable, actionId: string) {
    return sql.tokensOf(db, this.#o.tenant, actionId);
  }

  /**
   * Reports each approved action's delivery to its governance agent (`check_governance`, phase
   * `delivery`) when the agent's `next_check` has come or the spend moved since the last report; a
   * denied report halts the action. An agent that cannot be reached is tried again next pass.
   */
  deliveryPass(delivery: DeliveryOf, intervalMs = 60_000): TenantPass {
    return {
      name: 'governance-delivery',
      intervalMs,
      run: async ({ db, clock, log }) => {
        for (let after = ''; ;) {
          const actions = await sql.approvedActions(db, this.#o.tenant, after, batch);
          for (const action of actions) {
            try {
              await this.#report(db, action, delivery, clock.now());
            } catch (err) {
              log.warn({ err, action: action.action_id }, 'governance delivery report failed; the next pass retries');
            }
          }
          if (actions.length < batch) return;
          after = actions.at(-1)!.action_id;
        }
      },
    };
  }

  async #report(db: Database, action: sql.ActionRow, delivery: DeliveryOf, now: Date): Promise<void> {
    const delivered = await delivery.spendOf(db, action, now);
    if (!delivered) return;
    const before = action.reported_spend === null ? 0 : Number(action.reported_spend);
    const moved = action.reported_spend === null || before !== delivered.spend;
    const due = action.next_check_at !== null && action.next_check_at <= now;
    if (!moved && !due) return;
    const agent = (await sql.agentsOf(db, action, action.account_id)).find((a) => a.url === action.agent_url);
    if (!agent) return;
    const verdict = await askGovernance(this.#agentOf(agent), this.#fetch, {
      plan_id: action.plan_id,
      caller: this.#o.seller(),
      governance_context: action.governance_context,
      phase: 'delivery',
      planned_delivery: {},
      delivery_metrics: {
        reporting_period: { start: (action.reported_until ?? action.created_at).toISOString(), end: now.toISOString() },
        spend: Math.max(0, delivered.spend - before),
        cumulative_spend: delivered.spend,
        cumulative_impressions: delivered.impressions,
      },
    });
    const halted = verdict['status'] === 'denied';
    const token = typeof verdict['governance_context'] === 'string' ? verdict['governance_context'] : undefined;
    await db.transaction(async (tx) => {
      await sql.recordReport(tx, this.#o.tenant, action.action_id, {
        spend: delivered.spend,
        until: now,
        nextCheckAt: typeof verdict['next_check'] === 'string' ? new Date(verdict['next_check']) : null,
        governanceContext: token,
        halted,
      });
      if (token)
        await sql.recordToken(
          tx,
          this.#o.tenant,
          action.action_id,
          tokenRecord(token, readClaims(token), 'approved'),
          now,
        );
      if (halted) await delivery.halt(tx, action, explanationOf(verdict), now);
    });
  }

  async #accountOf(ref: unknown, ctx: PrepareContext): Promise<ResolvedAccount | undefined> {
    if (typeof ref !== 'object' || ref === null) return undefined;
    try {
      const account = await this.#o.resolveAccount(ref as Json, {
        db: ctx.db,
        principal: ctx.principal,
        now: ctx.clock.now(),
      });
      return account?.account_id ? account : undefined;
    } catch (err) {
      // An account the call cannot use is refused by the call itself, with its own error.
      if (err instanceof AgentError) return undefined;
      throw err;
    }
  }

  #agentOf(row: sql.AgentRow): GovernanceAgent {
    return { url: row.url, credential: unseal(row.credentials, this.#o.secret) };
  }
}

/** A verdict other than approved is the seller's GOVERNANCE_DENIED: it cannot adjust what it plans to meet conditions. */
function refuseUnapproved(verdict: Json, agentUrl: string): void {
  if (verdict['status'] === 'approved' && typeof verdict['governance_context'] === 'string') return;
  const conditions = verdict['status'] === 'conditions';
  throw new AgentError(
    'GOVERNANCE_DENIED',
    `The governance agent at ${agentUrl} ${conditions ? 'approved only with conditions this seller cannot meet' : 'denied the purchase'}: ${explanationOf(verdict)}`,
    {
      details: {
        check_id: verdict['check_id'],
        status: verdict['status'],
        ...(Array.isArray(verdict['findings']) ? { findings: verdict['findings'] } : {}),
        ...(Array.isArray(verdict['conditions']) ? { conditions: verdict['conditions'] } : {}),
      },
    },
  );
}

function explanationOf(verdict: Json): string {
  return typeof verdict['explanation'] === 'string' ? verdict['explanation'] : String(verdict['status']);
}

function tokenRecord(token: string, claims: Json, outcome: string): sql.TokenRecord {
  const aud = claims['aud'];
  return {
    jti: String(claims['jti']),
    iss: String(claims['iss']),
    aud: Array.isArray(aud) ? aud.join(' ') : typeof aud === 'string' ? aud : undefined,
    sub: String(claims['sub']),
    phase: String(claims['phase']),
    outcome,
    token,
  };
}

/** The claims of a token the seller holds from its own check: it came over the seller's own call, so it is read, not verified. */
function readClaims(token: string): Json {
  try {
    return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Json;
  } catch {
    return {};
  }
}
