import type { Category, Plan, StoredPlan } from '../plans/plan.ts';
import type { Proposal } from './proposal.ts';

export interface Finding {
  category_id: Category;
  severity: 'info' | 'warning' | 'critical';
  explanation: string;
  details?: Record<string, unknown>;
}

export interface Condition {
  field: string;
  required_value?: unknown;
  reason: string;
}

export interface Evaluation {
  status: 'approved' | 'denied' | 'conditions';
  findings: Finding[];
  conditions: Condition[];
  explanation: string;
}

/** Where the plan's budget stands, the action being checked left out (its own reservation is what the check replaces). */
export interface BudgetState {
  committedByOthers: number;
  /** What other actions of the same seller committed, for `per_seller_max_pct`. */
  committedBySellerOthers: number;
  deliveredByOthers: number;
  /** What this action has committed so far (0 for a new one). */
  committedByAction: number;
}

export interface CheckInput {
  plan: StoredPlan;
  kind: 'intent' | 'execution';
  /** Execution checks only. */
  phase: 'purchase' | 'modification' | 'delivery' | undefined;
  proposal: Proposal;
  budget: BudgetState;
  /** A delivery check's cumulative spend for this action (delivery_metrics.cumulative_spend, else its spend). */
  cumulativeSpend: number | undefined;
  actionStatus: 'active' | 'suspended' | 'completed' | undefined;
}

// By hand: toLocaleString cost more than the rest of a check's evaluation.
const money = (amount: number, currency: string) =>
  `${currency} ${(Math.round(amount * 100) / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;

/**
 * The decision of one check, deterministic over the plan and the budget state: a critical finding
 * denies; a bound the caller can meet by changing a value (a seller's share, the flight) answers
 * `conditions` with the value required; otherwise approved. Rules whose input the proposal does not
 * name are not applied.
 */
export function evaluate(input: CheckInput): Evaluation {
  const { plan: stored, proposal, budget } = input;
  const plan = stored.plan;
  const findings: Finding[] = [];
  const conditions: Condition[] = [];
  const critical = (category_id: Category, explanation: string, details?: Record<string, unknown>) =>
    findings.push({ category_id, severity: 'critical', explanation, ...(details ? { details } : {}) });
  const currency = plan.budget.currency;
  const amountField = input.kind === 'intent' ? 'payload.budget' : 'planned_delivery.total_budget';

  if (stored.status !== 'active') critical('budget_authority', `The plan is ${stored.status}.`);
  if (input.actionStatus === 'suspended')
    critical('delivery_drift', 'This governed action is suspended: its delivery left the plan.');
  if (plan.human_review_required && input.phase !== 'delivery')
    critical(
      'human_review',
      'The plan requires human review of every commitment, and this agent has no reviewer configured: nothing is approved without one.',
    );

  const amount = input.phase === 'delivery' ? undefined : proposal.amount;
  if (proposal.currency !== undefined && proposal.currency !== currency)
    critical('budget_authority', `The plan's budget is in ${currency}, not ${proposal.currency}.`);
  else if (amount !== undefined) {
    const remaining = plan.budget.total - budget.committedByOthers;
    if (amount > remaining)
      critical(
        'budget_authority',
        `${money(amount, currency)} exceeds what the plan has left: ${money(Math.max(0, remaining), currency)} of ${money(plan.budget.total, currency)}.`,
        { requested: amount, remaining: Math.max(0, remaining), total: plan.budget.total },
      );
    else if (plan.budget.per_seller_max_pct !== undefined && proposal.seller !== undefined) {
      const cap = (plan.budget.total * plan.budget.per_seller_max_pct) / 100;
      const allowed = Math.max(0, cap - budget.committedBySellerOthers);
      if (amount > allowed)
        conditions.push({
          field: amountField,
          required_value: allowed,
          reason: `One seller may take at most ${plan.budget.per_seller_max_pct}% of the plan (${money(cap, currency)}); ${money(allowed, currency)} is left for this one.`,
        });
    }
  }

  const approvedSellers = plan.approved_sellers;
  if (Array.isArray(approvedSellers) && proposal.seller !== undefined && !approvedSellers.includes(proposal.seller))
    critical('seller_authority', `${proposal.seller} is not among the plan's approved sellers.`);

  const outsideCountries = plan.countries?.length ? proposal.countries.filter((c) => !plan.countries!.includes(c)) : [];
  if (outsideCountries.length > 0)
    critical('geo_compliance', `The plan runs in ${plan.countries!.join(', ')}, not ${outsideCountries.join(', ')}.`);

  const allowedChannels = plan.channels?.allowed;
  const outsideChannels = allowedChannels?.length ? proposal.channels.filter((c) => !allowedChannels.includes(c)) : [];
  if (outsideChannels.length > 0)
    critical(
      'channel_compliance',
      `The plan allows ${allowedChannels!.join(', ')}, not ${outsideChannels.join(', ')}.`,
    );

  flightConditions(plan, proposal, input.kind, conditions);

  if (input.phase === 'delivery' && input.cumulativeSpend !== undefined) {
    if (input.cumulativeSpend > budget.committedByAction)
      critical(
        'delivery_drift',
        `Delivered spend ${money(input.cumulativeSpend, currency)} is past the ${money(budget.committedByAction, currency)} this buy committed.`,
        { cumulative_spend: input.cumulativeSpend, committed: budget.committedByAction },
      );
    const planDelivered = budget.deliveredByOthers + input.cumulativeSpend;
    if (planDelivered > plan.budget.total)
      critical(
        'budget_authority',
        `The plan's delivered spend ${money(planDelivered, currency)} is past its budget of ${money(plan.budget.total, currency)}.`,
      );
  }

  const status = findings.some((f) => f.severity === 'critical')
    ? 'denied'
    : conditions.length > 0
      ? 'conditions'
      : 'approved';
  return { status, findings, conditions, explanation: explain(status, findings, conditions, input, currency) };
}

function flightConditions(plan: Plan, proposal: Proposal, kind: CheckInput['kind'], into: Condition[]): void {
  const prefix = kind === 'intent' ? 'payload' : 'planned_delivery';
  const [startField, endField] = kind === 'intent' ? ['start_time', 'end_time'] : ['start_time', 'end_time'];
  if (proposal.start !== undefined && Date.parse(proposal.start) < Date.parse(plan.flight.start))
    into.push({
      field: `${prefix}.${startField}`,
      required_value: plan.flight.start,
      reason: `The plan's flight starts ${plan.flight.start}.`,
    });
  if (proposal.end !== undefined && Date.parse(proposal.end) > Date.parse(plan.flight.end))
    into.push({
      field: `${prefix}.${endField}`,
      required_value: plan.flight.end,
      reason: `The plan's flight ends ${plan.flight.end}.`,
    });
}

function explain(
  status: Evaluation['status'],
  findings: readonly Finding[],
  conditions: readonly Condition[],
  input: CheckInput,
  currency: string,
): string {
  if (status === 'denied') return findings.map((f) => f.explanation).join(' ');
  if (status === 'conditions') return conditions.map((c) => c.reason).join(' ');
  const { amount } = input.proposal;
  const total = input.plan.plan.budget.total;
  if (input.phase === 'delivery')
    return `Delivery is within the plan: ${money(input.cumulativeSpend ?? 0, currency)} spent of ${money(input.budget.committedByAction, currency)} committed.`;
  return amount === undefined
    ? 'The action is within the plan’s parameters.'
    : `Within the plan: ${money(amount, currency)} of the ${money(total - input.budget.committedByOthers, currency)} it has left (budget ${money(total, currency)}).`;
}
