import { AgentError } from '../../../protocol/errors.ts';
import { checkPublishedRequest, type AgentTask } from '../../runtime/index.ts';
import { ownerOf } from '../accounts/index.ts';
import { seedCreativeFormatScenario, seedPricingOptionScenario, seedProductScenario } from './catalog-seeds.ts';
import { forceCreateMediaBuyArm } from './forced-arm.ts';
import { Refusal, type Scenario, type TestControllerOptions } from './scope.ts';
import { seedCreativeScenario, seedMediaBuyScenario, seedPlanScenario } from './seeds.ts';
import { simulateBudgetSpend, simulateDelivery } from './simulations.ts';
import { forceAccountStatus, forceCreativeStatus, forceMediaBuyStatus } from './statuses.ts';
import { forceTaskCompletion } from './task-completion.ts';

const REQUEST = '/schemas/3.0.6/compliance/comply-test-controller-request.json';
const RESPONSE = '/schemas/3.0.6/compliance/comply-test-controller-response.json';

/**
 * The scenarios this seller supports, and so lists: every one of the published enum whose entity
 * it has. Plans are a governance agent's and sessions a sponsored-intelligence agent's: see
 * `elsewhere`.
 */
const scenarios: Record<string, Scenario> = {
  force_account_status: forceAccountStatus,
  force_media_buy_status: forceMediaBuyStatus,
  force_creative_status: forceCreativeStatus,
  force_create_media_buy_arm: forceCreateMediaBuyArm,
  force_task_completion: forceTaskCompletion,
  seed_product: seedProductScenario,
  seed_pricing_option: seedPricingOptionScenario,
  seed_creative_format: seedCreativeFormatScenario,
  seed_creative: seedCreativeScenario,
  seed_media_buy: seedMediaBuyScenario,
  simulate_delivery: simulateDelivery,
  simulate_budget_spend: simulateBudgetSpend,
};

/**
 * Published scenarios of entities this seller does not have, answered UNKNOWN_SCENARIO as the
 * protocol asks of a scenario a seller does not implement (a coverage gap for the runner, not a
 * failure), with why.
 */
const elsewhere: Record<string, string> = {
  seed_plan: 'This seller has no media plans: plans are a governance agent’s, and none was handed to it.',
  force_session_status: 'This seller runs no sponsored-intelligence sessions.',
};

/** The scenarios of this controller: seed_plan too when the deployment's governance agent takes plans. */
function supportedBy(options: TestControllerOptions): Record<string, Scenario> {
  return options.seedPlan ? { ...scenarios, seed_plan: seedPlanScenario } : scenarios;
}

/** What `get_ap_capabilities` may say of them: its `compliance_testing.scenarios` names only these. */
const declarable = [
  'force_creative_status',
  'force_account_status',
  'force_media_buy_status',
  'force_session_status',
  'simulate_delivery',
  'simulate_budget_spend',
];

/** The `compliance_testing` block of the agent's capabilities: the supported scenarios its enum can name. */
export const complianceTesting = () => ({ scenarios: declarable.filter((name) => Object.hasOwn(scenarios, name)) });

/**
 * `comply_test_controller` (compliance/comply-test-controller-request.json): lets a compliance
 * harness force what a buyer cannot (review outcomes, statuses, the arm of the next create, a held
 * task's completion, delivery and spend) and seed entities under ids it names (products, pricing
 * options and formats that account's calls then see as catalog data: seededShelf), on the caller's
 * own sandbox accounts only: a request naming a production account, or none for a scenario that
 * acts, is FORBIDDEN. Entities are the caller's own in that account, else NOT_FOUND. Failures,
 * params the published request schema refuses included (INVALID_PARAMS), are the response's
 * ControllerError (`success: false`), not agent errors. Every forced change is recorded in its entity's history as `test-controller`.
 * Not keyed by idempotency_key, as the schema says: a status forced or a fixture seeded again
 * converges; simulate_delivery adds again (its cumulative totals say so).
 */
export function testControllerTask(options: TestControllerOptions): AgentTask {
  const supported = supportedBy(options);
  return {
    name: 'comply_test_controller',
    description:
      'Sandbox only: drives seller-side state for compliance tests on your sandbox account (pass account). scenario "list_scenarios" lists what this seller supports; force_*_status moves an account, media buy or creative; force_create_media_buy_arm shapes your next create_media_buy (submitted with your task_id, or input-required); force_task_completion completes that task with a result; simulate_delivery and simulate_budget_spend add delivery to a buy; seed_product, seed_pricing_option, seed_creative_format, seed_creative and seed_media_buy create fixtures under your ids (a minimal fixture is filled in from the catalog), which your account then sees in get_products, list_creative_formats and the other tasks; seed_plan (where listed) makes a campaign plan of yours with the deployment’s governance agent. Answers success, or success false with error and error_detail.',
    input: {
      type: 'object',
      properties: {
        scenario: { type: 'string', description: 'list_scenarios, or one of the scenarios it lists.' },
        // Untyped here so that a malformed one is the controller's own INVALID_PARAMS answer.
        params: {
          description: "An object: the scenario's parameters (compliance/comply-test-controller-request.json).",
        },
        account: { type: 'object', description: 'core/account-ref.json: your sandbox account the scenario acts on.' },
      },
      required: ['scenario'],
      additionalProperties: true,
    },
    output: { $ref: RESPONSE },
    mutates: false,
    // Its account is the sandbox it seeds and forces: named by natural key, it is declared.
    accountUse: 'acts',
    async handler(args, ctx) {
      const scenario = args['scenario'] as string;
      const account = ctx.account;
      if (account && account['sandbox'] !== true)
        return forbidden(
          `Account ${account.account_id} is not a sandbox account; the test controller acts on sandbox accounts only.`,
        );
      // Before the published schema's enum: a scenario string it does not know is answered, not refused.
      if (scenario !== 'list_scenarios' && !Object.hasOwn(supported, scenario)) {
        return new Refusal(
          'UNKNOWN_SCENARIO',
          `${Object.hasOwn(elsewhere, scenario) ? `${elsewhere[scenario]} ` : ''}This seller does not support ${scenario}; list_scenarios lists those it does.`,
        ).answer;
      }
      const malformed = publishedProblem(args);
      if (malformed) return malformed.answer;
      if (scenario === 'list_scenarios') return { success: true, scenarios: Object.keys(supported) };
      if (!account) return forbidden('Name your sandbox account (account) for the test controller to act on.');
      const params = (args['params'] as Record<string, unknown> | undefined) ?? {};
      try {
        return await supported[scenario]!({
          ctx,
          params,
          account,
          owner: ownerOf(ctx.principal),
          now: ctx.clock.now(),
          options,
        });
      } catch (err) {
        if (err instanceof Refusal) return err.answer;
        throw err;
      }
    },
  };
}

/** What the published request schema refuses in the call, as the controller's own INVALID_PARAMS. */
function publishedProblem(args: Record<string, unknown>): Refusal | undefined {
  try {
    checkPublishedRequest(REQUEST, args);
    return undefined;
  } catch (err) {
    if (!(err instanceof AgentError)) throw err;
    return new Refusal('INVALID_PARAMS', err.message);
  }
}

const forbidden = (detail: string) => new Refusal('FORBIDDEN', detail).answer;
