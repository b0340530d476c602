import type { Queryable } from '../../../db/database.ts';
import type { StoredPlan } from '../plans/plan.ts';
import * as sql from '../sql.ts';
import type { BudgetState } from './evaluate.ts';

/** How long an intent check may answer from a plan and budget read before. */
const freshMs = 1000;
/** Entries kept at most; past it all are dropped (a flood of plans costs reads, never memory). */
const keptEntries = 10_000;

/**
 * What intent checks read, kept for a second: they commit nothing, so a buyer's orchestrator
 * checking the same plan again and again is answered from memory, while execution checks (which
 * move budget) always read and lock the plan's row. This instance forgets everything the moment
 * it changes a plan or its budget (sync_plans, an execution check, an outcome) and keeps nothing
 * for a second after, so a read made before the change commits is not kept past it; another
 * instance's change shows here within the second.
 */
export class IntentReads {
  #plans = new Map<string, { at: number; plan: StoredPlan }>();
  #budgets = new Map<string, { at: number; state: BudgetState }>();
  #quietUntil = 0;

  /** The caller's plan of that id; a plan not found is never kept (it may be synced the next moment). */
  async plan(db: Queryable, owner: string, planId: string, now: number): Promise<StoredPlan | undefined> {
    const key = `${owner}\u0000${planId}`;
    const kept = this.#plans.get(key);
    if (kept && now - kept.at < freshMs) return kept.plan;
    const plan = await sql.planOf(db, owner, planId);
    if (plan) this.#keep(this.#plans, key, { at: now, plan }, now);
    return plan;
  }

  /** Where the plan's budget stands for a new action (none of its own yet), for `seller` when named. */
  async budget(
    db: Queryable,
    plan: string,
    actionId: string,
    seller: string | null,
    now: number,
  ): Promise<BudgetState> {
    const key = `${plan}\u0000${seller ?? ''}`;
    const kept = this.#budgets.get(key);
    if (kept && now - kept.at < freshMs) return kept.state;
    const state = await sql.budgetState(db, plan, actionId, seller);
    this.#keep(this.#budgets, key, { at: now, state }, now);
    return state;
  }

  /** Forgets every read, and keeps none for a second: a plan or a budget is changing here (at `now`). */
  forget(now: number): void {
    this.#plans.clear();
    this.#budgets.clear();
    this.#quietUntil = now + freshMs;
  }

  #keep<V>(map: Map<string, V>, key: string, value: V, now: number): void {
    if (now < this.#quietUntil) return;
    if (map.size >= keptEntries) map.clear();
    map.set(key, value);
  }
}
