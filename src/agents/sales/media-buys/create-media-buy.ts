import { AgentError } from '../../../protocol/errors.ts';
import type { Approval, SellerGovernance } from '../../seller-governance/index.ts';
import {
  textInput,
  publishedSchemas,
  type AgentTask,
  type PrepareContext,
  type TaskArguments,
} from '../../runtime/index.ts';
import { actorOf, ownerOf, requireActiveAccount } from '../accounts/index.ts';
import type { Product } from '../catalog/index.ts';
import type { Shelf } from '../offering.ts';
import { proposalPackages } from '../proposals/index.ts';
import { assignmentsOfPackages, type CreativeLibrary } from '../creatives/index.ts';
import { creativesOfNewPackages } from './creative-assignments.ts';
import { forcedAnswer, noForcedArms, type TakeForcedArm } from './forced-arm.ts';
import { buySummary, toPackage, type BuyRow } from './media-buy.ts';
import { newId, newPackages } from './new-packages.ts';
import { checkFlight, type PackageRequest } from './package-terms.ts';
import { checkReportingCapabilities, readReportingWebhook, webhookReadFirst } from './reporting-webhook.ts';
import { packageRequestSummary, reportingWebhookSummary } from './schemas.ts';
import * as sql from './sql.ts';
import { runningStatus } from './state.ts';

/** media-buy/create-media-buy-request.json as the runner has checked it: the fields this seller reads. */
export interface CreateMediaBuyRequest extends TaskArguments {
  account: Record<string, unknown>;
  brand: { domain: string; brand_id?: string };
  /** "asap" or an ISO 8601 date-time. */
  start_time: string;
  end_time: string;
  packages?: PackageRequest[];
  proposal_id?: string;
  total_budget?: { amount: number; currency: string };
  reporting_webhook?: unknown;
}

/** Fields of the request a buy keeps and echoes as sent. */
export const echoedFields = [
  'brand',
  'po_number',
  'agency_estimate_number',
  'advertiser_industry',
  'invoice_recipient',
] as const;

/**
 * `create_media_buy` (media-buy/create-media-buy-request.json), answered synchronously unless a
 * product needs the publisher's approval (then `submitted`: a worker books it and the caller's
 * push_notification_config hears the result): on an active account, packages of catalog
 * products are checked (flight and budgets first, then each product, pricing option, minimum spend, bid and terms) and the buy is confirmed at revision 1,
 * waiting for creatives unless its packages bring some: library creatives (creative_assignments) or
 * creatives uploaded with them (creatives, stored in the account's library), checked and assigned
 * by the creative library; it is then pending_start or active by its flight. A reporting_webhook
 * every product allows is kept with it, for the delivery reporting pass. The buy, its
 * packages, their creatives and its `created` history entry are written in the transaction of the
 * call's idempotency record, so a retry replays this answer and never books twice.
 */
export function createMediaBuyTask(
  shelf: Shelf,
  library: CreativeLibrary,
  takeForcedArm: TakeForcedArm = noForcedArms,
  governance?: SellerGovernance,
): AgentTask<CreateMediaBuyRequest> {
  return {
    name: 'create_media_buy',
    description:
      'Buy media: packages of products from get_products, each with product_id, pricing_option_id, budget (and bid_price for auction pricing), optionally creative_assignments (library creatives from sync_creatives) and creatives (uploaded into the library and assigned), over a flight (start_time "asap" or a future time, end_time). Needs an active account; with implicit accounts (get_ap_capabilities account.require_operator_auth false) a natural key (brand, operator, sandbox) you have not declared is declared by the call. Answers the media buy (status pending_creatives until it has creatives, revision 1, packages with their package_id, valid_actions); a product needing the publisher\'s approval answers {status: "submitted", task_id} instead, completed through get_task or push_notification_config. reporting_webhook {url, reporting_frequency, requested_metrics?} has delivery reports pushed to you, signed with RFC 9421.',
    input: {
      type: 'object',
      properties: {
        account: {
          type: 'object',
          description:
            'core/account-ref.json: {account_id} or {brand, operator, sandbox?}; with implicit accounts a natural key not yet declared is declared.',
        },
        brand: {
          type: 'object',
          description: 'core/brand-ref.json: the advertiser, by domain.',
          properties: { domain: { type: 'string' } },
          required: ['domain'],
        },
        start_time: { type: 'string', description: '"asap" or an ISO 8601 date-time not in the past.' },
        end_time: { type: 'string', description: 'ISO 8601 date-time after the start.' },
        packages: { type: 'array', minItems: 1, items: packageRequestSummary },
        po_number: textInput('name', 'The buyer’s purchase order number'),
        proposal_id: {
          type: 'string',
          description:
            'A proposal from get_products to buy (before its expires_at), instead of packages: with total_budget, its allocations become the packages.',
        },
        total_budget: {
          type: 'object',
          description: 'With proposal_id: the total, shared among the proposal’s allocations by their percentages.',
          properties: { amount: { type: 'number', minimum: 0 }, currency: { type: 'string' } },
          required: ['amount', 'currency'],
        },
        reporting_webhook: reportingWebhookSummary,
      },
      required: ['account', 'brand', 'start_time', 'end_time'],
      additionalProperties: true,
    },
    ...publishedSchemas('media-buy/create-media-buy'),
    publishedForm: webhookReadFirst,
    mutates: true,
    mayDefer: true,
    // On an account under campaign governance, the buyer's governance agent approves the buy
    // before the transaction opens (it is another agent, perhaps of this deployment).
    ...(governance
      ? {
          prepare: async (args: CreateMediaBuyRequest, pctx: PrepareContext): Promise<Governed> => {
            // Booked by the worker after the publisher's approval: approved (and recorded) when it was asked for.
            if (pctx.background)
              return {
                mediaBuyId: (await governance.actionApproved(pctx.db, args['governance_context'])) ?? newId('mb'),
                approval: undefined,
              };
            const mediaBuyId = newId('mb');
            const approval = await governance.checkPurchase(args, pctx, async (account) =>
              plannedDelivery(args, (await shelf(pctx.db, account)).products, mediaBuyId, pctx.clock.now()),
            );
            return { mediaBuyId, approval };
          },
        }
      : {}),
    async handler(args, ctx) {
      const governed = ctx.prepared as Governed | undefined;
      const webhook = readReportingWebhook(args['reporting_webhook']);
      const account = requireActiveAccount(ctx.account);
      refuseUnoffered(args);
      const now = ctx.clock.now();
      const proposalId = args.proposal_id;
      const requests =
        proposalId === undefined ? args.packages : await proposalPackages(ctx.db, ownerOf(ctx.principal), args, now);
      if (!requests)
        throw new AgentError(
          'INVALID_REQUEST',
          'A media buy needs packages, or a proposal_id (with total_budget) from get_products.',
          { field: 'packages' },
        );

      const flight = checkFlight(args.start_time, args.end_time, now);
      const mediaBuyId = governed?.mediaBuyId ?? newId('mb');
      const { products } = await shelf(ctx.db, account);
      const { rows, currency } = newPackages({
        requests,
        at: 'packages',
        flight,
        products,
        currency: undefined,
        mediaBuyId,
        firstPosition: 0,
      });
      const creatives = creativesOfNewPackages(requests, rows, products, 'packages');
      if (webhook)
        checkReportingCapabilities(
          webhook,
          rows.map((r) => r.product_id),
          products,
        );

      // A sandbox test controller's directive answers the call instead (consumed in its transaction);
      // the controller arms sandbox accounts only.
      const forced =
        ctx.background || account['sandbox'] !== true ? undefined : await takeForcedArm(ctx.db, account.account_id);
      if (forced) return forcedAnswer(forced, ctx);
      // Checked in full first, so a buy that waits is one that will book; booked by the worker's run.
      const waiting = approvalsNeeded(rows.map((r) => products.find((p) => p.product_id === r.product_id)!));
      if (waiting.length > 0 && !ctx.background) {
        if (governed?.approval)
          await governance!.recordApproval(ctx.db, ownerOf(ctx.principal), mediaBuyId, governed.approval);
        return ctx.defer({
          message: `${waiting.join(', ')} ${waiting.length === 1 ? 'needs' : 'need'} the publisher's approval; the buy is confirmed when this task completes.`,
        });
      }

      const buy: BuyRow = {
        seq: 0,
        media_buy_id: mediaBuyId,
        owner: ownerOf(ctx.principal),
        account_id: account.account_id,
        status: runningStatus({ creatives: creatives.length, start: flight.start }, now),
        revision: 1,
        currency,
        sandbox: account['sandbox'] === true,
        start_time: flight.start,
        end_time: flight.end,
        details: {
          ...Object.fromEntries(echoedFields.filter((f) => args[f] !== undefined).map((f) => [f, args[f]])),
          ...(proposalId === undefined ? {} : { proposal_id: proposalId }),
        },
        cancellation: null,
        confirmed_at: now,
        updated_at: now,
      };
      await sql.insertNewBuy(ctx.db, buy, rows, {
        revision: 1,
        action: 'created',
        summary: `Created${proposalId === undefined ? '' : ` from proposal ${proposalId}`} with ${rows.length} package${rows.length === 1 ? '' : 's'}, ${currency} ${rows.reduce((s, r) => s + r.budget, 0)}.`,
        status: buy.status,
        actor: actorOf(ctx.principal),
        at: now,
      });
      if (webhook) await sql.setReportingWebhook(ctx.db, mediaBuyId, webhook, now);
      if (governed?.approval) await governance!.recordApproval(ctx.db, buy.owner, mediaBuyId, governed.approval);
      await library.assign(
        ctx.db,
        { owner: buy.owner, accountId: account.account_id, sandbox: buy.sandbox },
        creatives,
        now,
      );
      // New packages hold only what this request assigned them.
      const assigned =
        creatives.length === 0
          ? []
          : await assignmentsOfPackages(
              ctx.db,
              rows.map((r) => r.package_id),
            );
      return {
        ...buySummary(buy),
        account,
        packages: rows.map((r) => toPackage(r, buy, assigned)),
        sandbox: buy.sandbox,
      };
    },
  };
}

/** What create_media_buy's prepare hands its handler: the buy's id, and its governance approval when the account is governed. */
interface Governed {
  mediaBuyId: string;
  approval: Approval | undefined;
}

/**
 * What the seller will deliver for the request, as a governance agent checks it
 * (core/planned-delivery.json): the flight, the budget in all, its currency and channels when the
 * products say, and the buy's id (beside the schema's fields), which the approval is bound to.
 */
function plannedDelivery(
  args: CreateMediaBuyRequest,
  products: readonly Product[],
  mediaBuyId: string,
  now: Date,
): Record<string, unknown> {
  const packages = args.packages ?? [];
  const bought = packages.map((p) => products.find((product) => product.product_id === p.product_id));
  const currencies = new Set(
    packages.flatMap((p, i) =>
      (bought[i]?.pricing_options ?? [])
        .filter((o) => o.pricing_option_id === p.pricing_option_id)
        .map((o) => o.currency),
    ),
  );
  const channels = [...new Set(bought.flatMap((p) => (p?.['channels'] as string[] | undefined) ?? []))];
  const total = args.total_budget?.amount ?? packages.reduce((sum, p) => sum + p.budget, 0);
  return {
    media_buy_id: mediaBuyId,
    start_time: args.start_time === 'asap' ? now.toISOString() : args.start_time,
    end_time: args.end_time,
    total_budget: total,
    ...(currencies.size === 1 ? { currency: [...currencies][0] } : {}),
    ...(channels.length > 0 ? { channels } : {}),
  };
}

/** The products (by name) a buy of them waits for the publisher to approve: catalog `ext.ap.requires_approval`. */
function approvalsNeeded(products: readonly Product[]): string[] {
  const needing = products.filter(
    (p) => (p['ext'] as { ap?: { requires_approval?: unknown } } | undefined)?.ap?.requires_approval === true,
  );
  return [...new Set(needing.map((p) => p.name))];
}

/** What the request schema allows but this seller cannot do yet: refused by name, never silently dropped. */
function refuseUnoffered(args: Record<string, unknown>): void {
  for (const field of ['artifact_webhook'] as const) {
    if (args[field] !== undefined)
      throw new AgentError('UNSUPPORTED_FEATURE', `This seller does not offer ${field} yet.`, { field });
  }
}
