import type { Principal } from '../../../auth/index.ts';
import type { Queryable } from '../../../db/database.ts';
import type { ResolvedAccount, TaskContext } from '../../runtime/index.ts';
import type { Shelf } from '../offering.ts';

/** Who a forced change is recorded as, in every entity's history. */
export const actor = 'test-controller';

/** What the controller needs of the sales agent beyond the call. */
export interface TestControllerOptions {
  /** What an account sees: the catalog with the account's seeds (seededShelf), which seeds build on. */
  shelf: Shelf;
  /** This sales agent's own URL: the agent that defines the formats seeded here. */
  agentUrl: () => string;
  /**
   * Seeds a plan of the caller's with the deployment's governance agent (seed_plan); false when the
   * caller has one of that id. Without it, this seller has no plans to seed.
   */
  seedPlan?: (
    db: Queryable,
    caller: Principal,
    planId: string,
    fixture: Record<string, unknown>,
    now: Date,
  ) => Promise<boolean>;
}

/** One scenario's call: the caller's sandbox account (resolved and checked), its owner key, the time. */
export interface Scope {
  ctx: TaskContext;
  params: Record<string, unknown>;
  account: ResolvedAccount;
  owner: string;
  now: Date;
  options: TestControllerOptions;
}

export type Answer = Record<string, unknown>;
export type Scenario = (scope: Scope) => Promise<Answer>;

/** comply-test-controller-response.json's ControllerError codes. */
export type ControllerErrorCode =
  | 'INVALID_TRANSITION'
  | 'INVALID_STATE'
  | 'NOT_FOUND'
  | 'UNKNOWN_SCENARIO'
  | 'INVALID_PARAMS'
  | 'FORBIDDEN'
  | 'INTERNAL_ERROR';

/**
 * A scenario's business failure, thrown so that a transaction it runs in rolls back, and answered
 * as the schema's ControllerError (a result with `success: false`, not a protocol error).
 */
export class Refusal extends Error {
  readonly answer: Answer;
  /** `currentState`: the entity's state where it has one, null when there is no such entity, absent when neither says anything. */
  constructor(code: ControllerErrorCode, detail: string, currentState?: string | null) {
    super(detail);
    this.name = 'Refusal';
    this.answer = {
      success: false,
      error: code,
      error_detail: detail,
      ...(currentState === undefined ? {} : { current_state: currentState }),
    };
  }
}

/** StateTransitionSuccess: the same state again changes nothing and says so. */
export function transition(entity: string, previous: string, current: string): Answer {
  const message =
    previous === current
      ? `${entity} is already ${current}; nothing changed.`
      : `${entity} moved from ${previous} to ${current}.`;
  return { success: true, previous_state: previous, current_state: current, message };
}
