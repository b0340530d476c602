import type { Queryable } from '../../../db/database.ts';
import { ownerOf, publishedSchemas, type AgentTask, type TaskArguments } from '../../runtime/index.ts';
import type { TokenKeys } from '../tokens/token-keys.ts';
import type { StoredPlan } from '../plans/plan.ts';
import * as sql from '../sql.ts';

/** At most this many plans a call, and this many newest entries a plan: the answer has no paging. */
export const maxAuditPlans = 100;
export const maxAuditEntries = 1000;

interface AuditArgs extends TaskArguments {
  plan_ids?: string[];
  portfolio_plan_ids?: string[];
  governance_contexts?: string[];
  include_entries?: boolean;
}

/**
 * `get_plan_audit_logs` (governance/get-plan-audit-logs-request.json): the caller's plans, named by
 * id, by portfolio (the portfolio plan and its members) or by a token issued for them, each with
 * its budget (authorized, committed, remaining), the counts of its checks and outcomes, its
 * governed actions and, with `include_entries`, its newest entries (each check's token and plan hash,
 * for an auditor to verify against the published keys).
 */
export function getPlanAuditLogsTask(keys: TokenKeys): AgentTask<AuditArgs> {
  const list = { type: 'array', minItems: 1, maxItems: maxAuditPlans, items: { type: 'string', maxLength: 8192 } };
  return {
    name: 'get_plan_audit_logs',
    description:
      'Audit your campaign plans: budget authorized, committed and remaining, checks and outcomes by decision, governed actions, and (include_entries) every check with its signed governance_context and plan_hash.',
    input: {
      type: 'object',
      properties: {
        plan_ids: list,
        portfolio_plan_ids: list,
        governance_contexts: list,
        include_entries: { type: 'boolean' },
      },
      additionalProperties: true,
    },
    ...publishedSchemas('governance/get-plan-audit-logs'),
    mutates: false,
    async handler(args, ctx) {
      const owner = ownerOf(ctx.principal);
      const ids = new Set(args.plan_ids ?? []);
      for (const portfolio of await sql.plansOf(ctx.db, owner, args.portfolio_plan_ids ?? [])) {
        ids.add(portfolio.plan_id);
        const members = (portfolio.plan['portfolio'] as { member_plan_ids?: unknown } | undefined)?.member_plan_ids;
        if (Array.isArray(members)) for (const m of members) if (typeof m === 'string') ids.add(m);
      }
      for (const token of args.governance_contexts ?? []) {
        // A token that is not this agent's names no plan: nothing to answer for it.
        const claims = await keys.own(ctx.db, token).catch(() => undefined);
        if (claims) ids.add(claims.sub);
      }
      const plans = await sql.plansOf(ctx.db, owner, [...ids].slice(0, maxAuditPlans));
      return { plans: await Promise.all(plans.map((plan) => auditOf(ctx.db, plan, args.include_entries === true))) };
    },
  };
}

async function auditOf(db: Queryable, plan: StoredPlan, withEntries: boolean): Promise<Record<string, unknown>> {
  const [actions, counts] = await Promise.all([sql.actionsOf(db, plan.id), sql.logCounts(db, plan.id)]);
  const authorized = plan.plan.budget.total;
  const committed = actions.reduce((sum, a) => sum + (a.status === 'completed' ? 0 : a.committed), 0);
  return {
    plan_id: plan.plan_id,
    plan_version: plan.version,
    status: plan.status,
    budget: {
      authorized,
      committed,
      remaining: Math.max(0, authorized - committed),
      utilization_pct: Math.round((committed / authorized) * 10_000) / 100,
    },
    summary: {
      checks_performed: counts.checks,
      outcomes_reported: counts.outcomes,
      statuses: {
        approved: counts.approved,
        denied: counts.denied,
        conditions: counts.conditions,
        human_reviewed: 0,
      },
      findings_count: counts.findings,
    },
    ...(withEntries ? { entries: await sql.logOf(db, plan.id, maxAuditEntries) } : {}),
    governed_actions: actions
      .filter((a) => a.governance_context !== null)
      .map((a) => ({
        governance_context: a.governance_context!,
        purchase_type: a.purchase_type,
        status: a.status,
        committed: a.committed,
        check_count: a.check_count,
        ...(a.seller_reference ? { seller_reference: a.seller_reference } : {}),
      })),
  };
}
