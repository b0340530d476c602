import { AgentError } from '../../../protocol/errors.ts';
import { checkPublishedRequest, type AgentTask } from '../../runtime/index.ts';
import { actorOf, ownerOf, requireActiveAccount } from '../accounts/index.ts';
import type { Offering } from '../offering.ts';
import type { FormatId } from '../../formats/index.ts';
import type { CreativeLibrary, NewAssignment } from './creative-assignments.ts';
import { forcedAnswer, noForcedArms, type TakeForcedArm } from './forced-arm.ts';
import { buySummary, toPackage, type BuyRow } from './media-buy.ts';
import { newId, newPackages } from './new-packages.ts';
import { checkFlight, type PackageRequest } from './package-terms.ts';
import { packageRequestSummary } from './schemas.ts';
import * as sql from './sql.ts';
import { runningStatus } from './state.ts';

const REQUEST = '/schemas/3.0.6/media-buy/create-media-buy-request.json';

/** Fields of the request a buy keeps and echoes as sent. */
export const echoedFields = ['brand', 'po_number', 'agency_estimate_number', 'advertiser_industry', 'invoice_recipient'] as const;

/**
 * `create_media_buy` (media-buy/create-media-buy-request.json), answered synchronously: on an
 * active account, packages of catalog products are checked (flight and budgets first, then each
 * product, pricing option, minimum spend, bid and terms) and the buy is confirmed at revision 1,
 * waiting for creatives unless its packages name library creatives (creative_assignments, checked
 * and assigned by the creative library; then pending_start or active by its flight). The buy, its packages and its `created` history entry are written in the
 * transaction of the call's idempotency record, so a retry replays this answer and never books twice.
 */
export function createMediaBuyTask(offering: () => Offering, library: CreativeLibrary, takeForcedArm: TakeForcedArm = noForcedArms): AgentTask {
  return {
    name: 'create_media_buy',
    description:
      'Buy media: packages of products from get_products, each with product_id, pricing_option_id, budget (and bid_price for auction pricing), over a flight (start_time "asap" or a future time, end_time). Needs an active account. Answers the media buy (status pending_creatives, revision 1, packages with their package_id, valid_actions).',
    input: {
      type: 'object',
      properties: {
        account: { type: 'object', description: 'core/account-ref.json: {account_id} or {brand, operator, sandbox?}.' },
        brand: { type: 'object', description: 'core/brand-ref.json: the advertiser, by domain.', properties: { domain: { type: 'string' } }, required: ['domain'] },
        start_time: { type: 'string', description: '"asap" or an ISO 8601 date-time not in the past.' },
        end_time: { type: 'string', description: 'ISO 8601 date-time after the start.' },
        packages: { type: 'array', minItems: 1, items: packageRequestSummary },
        po_number: { type: 'string' },
        proposal_id: { type: 'string', description: 'Not offered by this seller: pass packages.' },
      },
      required: ['account', 'brand', 'start_time', 'end_time'],
      additionalProperties: true,
    },
    output: { $ref: '/schemas/3.0.6/media-buy/create-media-buy-response.json' },
    mutates: true,
    mayDefer: true,
    async handler(args, ctx) {
      checkPublishedRequest(REQUEST, args);
      const account = requireActiveAccount(ctx.account);
      refuseUnoffered(args);
      const requests = args['packages'] as PackageRequest[] | undefined;
      if (!requests) throw new AgentError('INVALID_REQUEST', 'A media buy needs packages (this seller executes no proposals).', { field: 'packages' });

      const now = ctx.clock.now();
      const flight = checkFlight(args['start_time'] as string, args['end_time'] as string, now);
      const mediaBuyId = newId('mb');
      const products = offering().products;
      const { rows, currency } = newPackages({ requests, at: 'packages', flight, products, currency: undefined, mediaBuyId, firstPosition: 0, takesAssignments: true });
      const assignments: NewAssignment[] = rows.flatMap((row, i) =>
        (requests[i]!.creative_assignments as Array<{ creative_id: string; weight?: number; placement_ids?: string[] }> | undefined ?? []).map((a, j) => ({
          ...a,
          package_id: row.package_id,
          formats: (row.details['format_ids'] as FormatId[] | undefined) ?? products.find((p) => p.product_id === row.product_id)!.format_ids,
          at: `packages[${i}].creative_assignments[${j}]`,
        })),
      );

      // A sandbox test controller's directive answers instead of booking (consumed in this transaction).
      const forced = await takeForcedArm(ctx.db, account.account_id);
      if (forced) return forcedAnswer(forced, ctx);
      const buy: BuyRow = {
        seq: 0,
        media_buy_id: mediaBuyId,
        owner: ownerOf(ctx.principal),
        account_id: account.account_id,
        status: runningStatus({ creatives: assignments.length, start: flight.start }, now),
        revision: 1,
        currency,
        sandbox: account['sandbox'] === true,
        start_time: flight.start,
        end_time: flight.end,
        details: Object.fromEntries(echoedFields.filter((f) => args[f] !== undefined).map((f) => [f, args[f]])),
        cancellation: null,
        confirmed_at: now,
        updated_at: now,
      };
      await sql.insertBuy(ctx.db, buy);
      for (const row of rows) await sql.insertPackage(ctx.db, row);
      await library.assign(ctx.db, account.account_id, assignments, now);
      await sql.recordHistory(ctx.db, mediaBuyId, [
        { revision: 1, action: 'created', summary: `Created with ${rows.length} package${rows.length === 1 ? '' : 's'}, ${currency} ${rows.reduce((s, r) => s + r.budget, 0)}.`, status: buy.status, actor: actorOf(ctx.principal), at: now },
      ]);
      return { ...buySummary(buy), account, packages: rows.map((r) => toPackage(r, buy)), sandbox: buy.sandbox };
    },
  };
}

/** What the request schema allows but this seller cannot do yet: refused by name, never silently dropped. */
function refuseUnoffered(args: Record<string, unknown>): void {
  for (const field of ['proposal_id', 'reporting_webhook', 'artifact_webhook'] as const) {
    if (args[field] !== undefined) throw new AgentError('UNSUPPORTED_FEATURE', `This seller does not offer ${field} yet.`, { field });
  }
}
