import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { validateSchema } from '../../../../src/protocol/schemas.ts';
import type { ManualClock } from '../../../support/clock.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import { banner, sync } from '../creatives/harness.ts';
import { createArgs, type Buyer } from '../media-buys/harness.ts';

export { buyer, buyerPool, day, startSales, type Buyer } from '../media-buys/harness.ts';

const RESPONSE = '/schemas/3.0.6/media-buy/get-media-buy-delivery-response.json';

/** get_media_buy_delivery, its answer checked against the published response schema. */
export async function delivery(b: Buyer, args: Record<string, unknown> = {}): Promise<Json> {
  const payload = await b.call('get_media_buy_delivery', args);
  assert.deepEqual(validateSchema(RESPONSE, payload).errors, [], 'get_media_buy_delivery answers its published schema');
  return payload;
}

/** The one buy of a delivery answer asked by id. */
export async function deliveryOf(b: Buyer, mediaBuyId: string, more: Record<string, unknown> = {}): Promise<Json> {
  const answer = await delivery(b, { media_buy_ids: [mediaBuyId], ...more });
  assert.equal(answer.media_buy_deliveries.length, 1);
  return answer.media_buy_deliveries[0];
}

/**
 * A buy that serves once its flight starts (the harness's: from ten days on for thirty days, a
 * CPM 14 package of 5,000 and an auction package of 1,000 bid at 5), with a banner of the buyer's
 * library assigned to both packages.
 */
export async function servingBuy(
  server: TestServer,
  clock: ManualClock,
  b: Buyer,
  more: Record<string, unknown> = {},
): Promise<Json> {
  const creativeId = `cr_${randomUUID().slice(0, 8)}`;
  await sync(b, [banner(server, creativeId)]);
  const args = createArgs(clock, b.account, b.domain, more);
  args['packages'] = (args['packages'] as Json[]).map((p) => ({
    ...p,
    creative_assignments: [{ creative_id: creativeId }],
  }));
  return b.call('create_media_buy', args);
}

/** Money as whole cents, so sums compare exactly. */
export const cents = (amount: number) => Math.round(amount * 100);
