import assert from 'node:assert/strict';
import { validateSchema } from '../../../../src/protocol/schemas.ts';
import type { ManualClock } from '../../../support/clock.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import { buyer, type Buyer } from '../media-buys/harness.ts';

export {
  buyer,
  buyerPool,
  createArgs,
  inDays,
  startSales,
  startSalesWithReceiver,
  type Buyer,
} from '../media-buys/harness.ts';

const RESPONSE = '/schemas/3.0.6/compliance/comply-test-controller-response.json';

/**
 * A comply_test_controller call of the buyer on its own account (or `account` when given, none
 * when null): the answer must be a result, not an agent error, valid against the published schema.
 */
export async function control(
  b: Buyer<object>,
  scenario: string,
  params?: Json,
  account: Json | null = b.account,
): Promise<Json> {
  const args = { scenario, ...(params ? { params } : {}), ...(account ? { account } : {}) };
  const result = (await b.client.callTool({ name: 'comply_test_controller', arguments: args })) as Json;
  const payload = JSON.parse(result.content[0].text as string) as Json;
  assert.equal(
    result.isError === true,
    false,
    `comply_test_controller ${scenario} is an agent error: ${JSON.stringify(payload)}`,
  );
  assert.deepEqual(
    validateSchema(RESPONSE, payload).errors,
    [],
    `${scenario} answers the published schema: ${JSON.stringify(payload)}`,
  );
  return payload;
}

/** A call that must succeed. */
export async function succeeds(
  b: Buyer<object>,
  scenario: string,
  params?: Json,
  account?: Json | null,
): Promise<Json> {
  const answer = await control(b, scenario, params, account);
  assert.equal(answer.success, true, JSON.stringify(answer));
  return answer;
}

/** A call that must answer the ControllerError `code`. */
export async function refused(
  b: Buyer<object>,
  code: string,
  scenario: string,
  params?: Json,
  account?: Json | null,
): Promise<Json> {
  const answer = await control(b, scenario, params, account);
  assert.deepEqual([answer.success, answer.error], [false, code], JSON.stringify(answer));
  assert.equal(typeof answer.error_detail, 'string');
  return answer;
}

/** A buyer with a sandbox account, and the reference a buyer's tool names it by: its natural key. */
export interface SandboxBuyer extends Buyer {
  /** `{brand, operator, sandbox: true}` (core/account-ref.json). */
  ref: Json;
}

/**
 * A buyer naming its sandbox account by natural key. The account is declared with sync_accounts
 * first (in `buyer`), so a test may name it by id too; a key never declared is the
 * declaration itself (test/agents/sales/specialisms.test.ts runs on such accounts).
 */
export async function sandboxBuyer(
  server: TestServer,
  clock: ManualClock,
  options: { org?: boolean } = {},
): Promise<SandboxBuyer> {
  const b = await buyer(server, clock, { ...options, sandbox: true });
  return { ...b, ref: { brand: { domain: b.domain }, operator: b.domain, sandbox: true } };
}

const answers: Record<string, string> = {
  get_products: '/schemas/3.0.6/media-buy/get-products-response.json',
  list_creative_formats: '/schemas/3.0.6/media-buy/list-creative-formats-response.json',
  sync_creatives: '/schemas/3.0.6/creative/sync-creatives-response.json',
  get_media_buy_delivery: '/schemas/3.0.6/media-buy/get-media-buy-delivery-response.json',
};

/** An ordinary task's call that must succeed, its answer valid against its published schema. */
export async function ask(b: Buyer, task: string, args: Record<string, unknown>): Promise<Json> {
  const payload = await b.call(task, args);
  const schema = answers[task];
  if (schema) assert.deepEqual(validateSchema(schema, payload).errors, [], `${task} answers its published schema`);
  return payload;
}
