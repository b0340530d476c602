import type { Queryable } from '../../../db/database.ts';
import { AgentError } from '../../../protocol/errors.ts';
import type { Change, ChangeApproval, SellerGovernance } from '../../seller-governance/index.ts';
import { publishedSchemas, type AgentTask, type PrepareContext, type ResolvedAccount } from '../../runtime/index.ts';
import { actorOf, ownerOf } from '../accounts/index.ts';
import type { Shelf } from '../offering.ts';
import { assignmentsOfPackages, type CreativeLibrary } from '../creatives/index.ts';
import { BuyUpdate, givesCreatives } from './buy-update.ts';
import { creativesHistory } from './creative-assignments.ts';
import { buySummary, toPackage, type BuyRow, type PackageRow } from './media-buy.ts';
import { checkReportingCapabilities, readReportingWebhook, webhookReadFirst } from './reporting-webhook.ts';
import {
  creativeAssignmentSummary,
  inlineCreatives,
  packageRequestSummary,
  reportingWebhookSummary,
} from './schemas.ts';
import * as sql from './sql.ts';
import { statusWithCreatives } from './state.ts';

/**
 * `update_media_buy` (media-buy/update-media-buy-request.json): pause or resume, cancel (terminal),
 * move the flight, change packages (budget, bid, flight, pause, cancel, targeting, creatives) and add
 * new ones, set or replace the reporting webhook (which every live product must allow, new ones
 * included). A package's creative_assignments replace its assignments; its inline creatives are
 * stored in the account's library and assigned besides (the creative library checks both, in this
 * call's transaction); a buy waiting for creatives moves on once it has some (statusWithCreatives).
 * The buy's row is locked for the call's transaction, so concurrent updates apply one after another;
 * a `revision` that is not the current one is CONFLICT. Each accepted call bumps the revision by
 * exactly one and records what it changed, who and when. What the status does not allow (see
 * valid_actions) is INVALID_STATE; a finished buy takes no change, and canceling one is NOT_CANCELLABLE.
 */
export function updateMediaBuyTask(shelf: Shelf, library: CreativeLibrary, governance?: SellerGovernance): AgentTask {
  return {
    name: 'update_media_buy',
    description:
      'Change a media buy: paused true/false, canceled true (with cancellation_reason; irreversible), start_time/end_time, packages[] updates by package_id (budget, bid_price, paused, canceled, flight, targeting_overlay, creative_assignments replacing the package’s library creatives, creatives uploaded into the library and added) and new_packages[]; reporting_webhook sets or replaces where delivery reports are pushed. Pass revision to update only the revision you last saw (else CONFLICT). Answers the new status, revision, affected_packages and valid_actions.',
    input: {
      type: 'object',
      properties: {
        account: { type: 'object', description: 'core/account-ref.json: the account the buy is billed to.' },
        media_buy_id: { type: 'string' },
        revision: {
          type: 'integer',
          minimum: 1,
          description: 'The revision you expect; CONFLICT when the buy has moved on.',
        },
        paused: { type: 'boolean', description: 'true pauses the buy, false resumes it.' },
        canceled: { type: 'boolean', const: true, description: 'Cancels the buy for good.' },
        cancellation_reason: { type: 'string', maxLength: 500 },
        start_time: { type: 'string', description: '"asap" or a future ISO 8601 date-time.' },
        end_time: { type: 'string' },
        packages: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            properties: {
              package_id: { type: 'string' },
              budget: { type: 'number', minimum: 0 },
              bid_price: { type: 'number', minimum: 0 },
              paused: { type: 'boolean' },
              canceled: { type: 'boolean', const: true },
              cancellation_reason: { type: 'string', maxLength: 500 },
              start_time: { type: 'string' },
              end_time: { type: 'string' },
              targeting_overlay: { type: 'object' },
              creative_assignments: {
                type: 'array',
                description:
                  'Replaces the package’s creative assignments (library creatives from sync_creatives); [] removes them all.',
                items: creativeAssignmentSummary,
              },
              creatives: inlineCreatives,
            },
            required: ['package_id'],
          },
        },
        new_packages: { type: 'array', minItems: 1, items: packageRequestSummary },
        reporting_webhook: {
          ...reportingWebhookSummary,
          description: `Sets or replaces the buy's reporting webhook; the reports' numbering goes on. ${reportingWebhookSummary.description}`,
        },
      },
      required: ['account', 'media_buy_id'],
      additionalProperties: true,
    },
    ...publishedSchemas('media-buy/update-media-buy'),
    publishedForm: webhookReadFirst,
    mutates: true,
    // A governed buy's change of spend or flight (or a resume of one its delivery halted) is
    // approved by its governance agent first, before the transaction opens.
    ...(governance
      ? {
          prepare: (args: Record<string, unknown>, pctx: PrepareContext) =>
            governance.checkChange(
              {
                account: args['account'],
                governance_context: args['governance_context'],
                actionId: String(args['media_buy_id']),
              },
              pctx,
              (action, account) => governedChange(pctx.db, shelf, action, account, args, pctx.clock.now()),
            ),
        }
      : {}),
    async handler(args, ctx) {
      const webhook = readReportingWebhook(args['reporting_webhook']);
      const account = ctx.account;
      if (!account)
        throw new AgentError('INVALID_REQUEST', 'Name the account the media buy is billed to.', { field: 'account' });
      const now = ctx.clock.now();
      const mediaBuyId = args['media_buy_id'] as string;

      const owner = ownerOf(ctx.principal);
      // Before the buy's lock, in the order sync_creatives takes them: the two never deadlock.
      if (givesCreatives(args)) await library.lock(ctx.db, account.account_id);
      const buy = await sql.lockBuy(ctx.db, owner, mediaBuyId);
      // Another account's buy (even the caller's own) is not this account's to change.
      if (!buy || buy.account_id !== account.account_id) {
        throw new AgentError('MEDIA_BUY_NOT_FOUND', `Account ${account.account_id} has no media buy ${mediaBuyId}.`, {
          field: 'media_buy_id',
        });
      }
      const expected = args['revision'] as number | undefined;
      if (expected !== undefined && expected !== buy.revision) {
        throw new AgentError(
          'CONFLICT',
          `Media buy ${mediaBuyId} is at revision ${buy.revision}, not ${expected}: it changed since you read it.`,
          {
            field: 'revision',
            details: { current_revision: buy.revision },
            suggestion: 'Read it again with get_media_buys and retry with its revision.',
          },
        );
      }
      const packages = await sql.packagesOf(ctx.db, [mediaBuyId]);
      const { products } = await shelf(ctx.db, account);
      const update = new BuyUpdate(buy, packages, now, account, products);
      if (args['canceled'] === true) update.cancel(args);
      else update.change(args);
      // Whatever the buy reports to must suit its products: a new webhook, or new products under the one it has.
      const reporting =
        webhook ?? (update.added.length > 0 ? await sql.reportingWebhookOf(ctx.db, mediaBuyId) : undefined);
      if (reporting)
        checkReportingCapabilities(
          reporting,
          [...update.packages, ...update.added].filter((p) => !p.cancellation).map((p) => p.product_id),
          products,
        );
      if (webhook)
        update.history.push({
          action: 'updated_reporting_webhook',
          summary: `Reporting webhook set: ${webhook.reporting_frequency} reports to ${new URL(webhook.url).host}.`,
        });

      // Packages first: the creatives assigned to new ones need their rows.
      for (const id of update.changedPackages)
        await sql.updatePackage(
          ctx.db,
          update.packages.find((p) => p.package_id === id)!,
        );
      for (const row of update.added) await sql.insertPackage(ctx.db, row);
      if (webhook) await sql.setReportingWebhook(ctx.db, mediaBuyId, webhook, now);
      const given =
        update.packageCreatives.length === 0
          ? []
          : await library.assign(
              ctx.db,
              { owner, accountId: account.account_id, sandbox: buy.sandbox },
              update.packageCreatives,
              now,
            );
      const before = update.buy.status;
      if (given.length > 0)
        update.buy.status = statusWithCreatives(
          before,
          await sql.hasCreatives(ctx.db, mediaBuyId),
          update.buy.start_time,
          now,
        );
      const revision = buy.revision + 1;
      const after: BuyRow = { ...update.buy, revision, updated_at: now };
      await sql.updateBuy(ctx.db, after);
      const approval = ctx.prepared as ChangeApproval | undefined;
      if (approval) await governance!.recordChange(ctx.db, approval);
      const actor = actorOf(ctx.principal);
      await sql.recordHistory(
        ctx.db,
        mediaBuyId,
        [...update.history, ...creativesHistory(given, before, after.status)].map((e) => ({
          ...e,
          revision,
          status: after.status,
          actor,
          at: now,
        })),
      );

      const affected = new Set([...update.changedPackages, ...update.added.map((p) => p.package_id)]);
      const assigned = await assignmentsOfPackages(ctx.db, [...affected]);
      const { media_buy_id, status, valid_actions, invoice_recipient } = buySummary(after);
      return {
        media_buy_id,
        status,
        revision,
        implementation_date: now.toISOString(),
        // Echoed (without bank details) when this update set it, as the response schema says.
        ...(args['invoice_recipient'] === undefined ? {} : { invoice_recipient }),
        affected_packages: [...update.packages, ...update.added]
          .filter((p) => affected.has(p.package_id))
          .map((p) => toPackage(p, after, assigned)),
        valid_actions,
        sandbox: after.sandbox,
      };
    },
  };
}

/**
 * What a change of a governed buy asks its governance agent (phase `modification`): the buy's
 * planned delivery after it (the same update, worked out on the buy as it stands; the call does it
 * again under the buy's lock), when it moves the spend or the flight, or resumes a buy whose
 * delivery was halted; nothing for a cancellation or a change of creatives, targeting or pause.
 */
async function governedChange(
  db: Queryable,
  shelf: Shelf,
  action: { owner: string; action_id: string; state: string },
  account: ResolvedAccount,
  args: Record<string, unknown>,
  now: Date,
): Promise<Change | undefined> {
  if (args['canceled'] === true) return undefined;
  const buy = await sql.buyOf(db, action.owner, action.action_id);
  if (!buy) return undefined;
  const packages = await sql.packagesOf(db, [buy.media_buy_id]);
  const { products } = await shelf(db, account);
  const update = new BuyUpdate(buy, packages, now, account, products);
  update.change(args);
  const total = (rows: readonly PackageRow[]) =>
    rows.filter((p) => !p.cancellation).reduce((sum, p) => sum + p.budget, 0);
  const before = total(packages);
  const after = total([...update.packages, ...update.added]);
  const flightMoved =
    update.buy.start_time.getTime() !== buy.start_time.getTime() ||
    update.buy.end_time.getTime() !== buy.end_time.getTime();
  const resumes = args['paused'] === false && action.state === 'halted';
  if (after === before && !flightMoved && !resumes) return undefined;
  return {
    planned: {
      media_buy_id: buy.media_buy_id,
      start_time: update.buy.start_time.toISOString(),
      end_time: update.buy.end_time.toISOString(),
      total_budget: after,
      currency: buy.currency,
    },
    summary: update.history.map((e) => e.summary).join(' ') || 'Resumed.',
    commitsMore: after > before,
  };
}
