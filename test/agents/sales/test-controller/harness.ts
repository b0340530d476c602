import assert from 'node:assert/strict';
import { validateSchema } from '../../../../src/protocol/schemas.ts';
import type { Json } from '../../../support/http.ts';
import type { Buyer } from '../media-buys/harness.ts';

export { buyer, buyerPool, createArgs, inDays, startSales, startSalesWithReceiver, type Buyer } from '../media-buys/harness.ts';

const RESPONSE = '/schemas/3.0.6/compliance/comply-test-controller-response.json';

/**
 * A comply_test_controller call of the buyer on its own account (or `account` when given, none
 * when null): the answer must be a result, not an agent error, valid against the published schema.
 */
export async function control(b: Buyer, scenario: string, params?: Json, account: Json | null = b.account): Promise<Json> {
  const args = { scenario, ...(params ? { params } : {}), ...(account ? { account } : {}) };
  const result = (await b.client.callTool({ name: 'comply_test_controller', arguments: args })) as Json;
  const payload = JSON.parse(result.content[0].text as string) as Json;
  assert.equal(result.isError === true, false, `comply_test_controller ${scenario} is an agent error: ${JSON.stringify(payload)}`);
  assert.deepEqual(validateSchema(RESPONSE, payload).errors, [], `${scenario} answers the published schema: ${JSON.stringify(payload)}`);
  return payload;
}

/** A call that must succeed. */
export async function succeeds(b: Buyer, scenario: string, params?: Json, account?: Json | null): Promise<Json> {
  const answer = await control(b, scenario, params, account);
  assert.equal(answer.success, true, JSON.stringify(answer));
  return answer;
}

/** A call that must answer the ControllerError `code`. */
export async function refused(b: Buyer, code: string, scenario: string, params?: Json, account?: Json | null): Promise<Json> {
  const answer = await control(b, scenario, params, account);
  assert.deepEqual([answer.success, answer.error], [false, code], JSON.stringify(answer));
  assert.equal(typeof answer.error_detail, 'string');
  return answer;
}
