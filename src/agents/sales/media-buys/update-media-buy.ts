import { AgentError } from '../../../protocol/errors.ts';
import { checkPublishedRequest, type AgentTask, type ResolvedAccount } from '../../runtime/index.ts';
import { actorOf, ownerOf, requireActiveAccount } from '../accounts/index.ts';
import type { Product } from '../catalog/index.ts';
import type { Shelf } from '../offering.ts';
import {
  assignmentsOfPackages,
  type CreativeAssignment,
  type CreativeLibrary,
  type PackageCreatives,
} from '../creatives/index.ts';
import { creativesHistory, creativesOfNewPackages, formatsOf } from './creative-assignments.ts';
import { buySummary, toPackage, type BuyRow, type HistoryEntry, type PackageRow } from './media-buy.ts';
import { newPackages } from './new-packages.ts';
import {
  checkBid,
  checkMinimumSpend,
  checkPositive,
  checkTargeting,
  checkWithin,
  movedFlight,
  packageFlight,
  termsOf,
  updatableTerms,
  type PackageRequest,
} from './package-terms.ts';
import { checkReportingCapabilities, readReportingWebhook } from './reporting-webhook.ts';
import {
  creativeAssignmentSummary,
  inlineCreatives,
  packageRequestSummary,
  reportingWebhookSummary,
} from './schemas.ts';
import * as sql from './sql.ts';
import { isTerminal, resumedStatus, statusWithCreatives, validActions, type ValidAction } from './state.ts';

const REQUEST = '/schemas/3.0.6/media-buy/update-media-buy-request.json';

/** media-buy/package-update.json: the fields this seller reads. */
interface PackageUpdate {
  package_id: string;
  budget?: number;
  bid_price?: number;
  start_time?: string;
  end_time?: string;
  paused?: boolean;
  canceled?: true;
  cancellation_reason?: string;
  targeting_overlay?: Record<string, unknown>;
  creative_assignments?: CreativeAssignment[];
  creatives?: Array<Record<string, unknown>>;
  [more: string]: unknown;
}

/** What the buy-level request may change besides cancellation. */
const buyChanges = [
  'paused',
  'start_time',
  'end_time',
  'packages',
  'new_packages',
  'invoice_recipient',
  'reporting_webhook',
] as const;
/** Package-update fields this seller cannot apply yet: refused by name, never silently dropped. */
const unofferedPackageFields = [
  'keyword_targets_add',
  'keyword_targets_remove',
  'negative_keywords_add',
  'negative_keywords_remove',
] as const;
/** Fields of a package (update or new) that give it creatives. */
const creativeFields = ['creative_assignments', 'creatives'] as const;

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
export function updateMediaBuyTask(shelf: Shelf, library: CreativeLibrary): AgentTask {
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
    output: { $ref: '/schemas/3.0.6/media-buy/update-media-buy-response.json' },
    mutates: true,
    async handler(args, ctx) {
      const webhook = readReportingWebhook(args['reporting_webhook']);
      checkPublishedRequest(REQUEST, args);
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
      const update = new Update(buy, packages, now, account, products);
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

type Entry = Pick<HistoryEntry, 'action' | 'summary' | 'package_id'>;

/** One update worked out on a copy of the buy and its packages; nothing is written until it all holds. */
class Update {
  buy: BuyRow;
  packages: PackageRow[];
  readonly added: PackageRow[] = [];
  readonly changedPackages = new Set<string>();
  readonly history: Entry[] = [];
  /** The creatives packages are given, for the creative library to check and assign. */
  readonly packageCreatives: PackageCreatives[] = [];
  readonly #now: Date;
  readonly #account: ResolvedAccount;
  readonly #products: readonly Product[];

  constructor(buy: BuyRow, packages: PackageRow[], now: Date, account: ResolvedAccount, products: readonly Product[]) {
    this.buy = { ...buy };
    this.packages = packages.map((p) => ({ ...p }));
    this.#now = now;
    this.#account = account;
    this.#products = products;
  }

  cancel(args: Record<string, unknown>): void {
    const mixed = buyChanges.filter((f) => args[f] !== undefined);
    if (mixed.length > 0)
      throw new AgentError('INVALID_REQUEST', `Cancel a media buy on its own: drop ${mixed.join(', ')}.`, {
        field: mixed[0],
      });
    if (isTerminal(this.buy.status)) {
      throw new AgentError('NOT_CANCELLABLE', `Media buy ${this.buy.media_buy_id} is already ${this.buy.status}.`, {
        field: 'canceled',
        details: { status: this.buy.status },
      });
    }
    const reason = args['cancellation_reason'] as string | undefined;
    this.buy.status = 'canceled';
    this.buy.cancellation = {
      canceled_at: this.#now.toISOString(),
      canceled_by: 'buyer',
      ...(reason === undefined ? {} : { reason }),
    };
    this.history.push({
      action: 'canceled',
      summary: reason === undefined ? 'Canceled by the buyer.' : `Canceled by the buyer: ${reason}`.slice(0, 500),
    });
  }

  change(args: Record<string, unknown>): void {
    if (args['cancellation_reason'] !== undefined)
      throw new AgentError('INVALID_REQUEST', 'cancellation_reason goes with canceled: true.', {
        field: 'cancellation_reason',
      });
    if (isTerminal(this.buy.status)) {
      throw new AgentError(
        'INVALID_STATE',
        `Media buy ${this.buy.media_buy_id} is ${this.buy.status}; it takes no more changes.`,
        { details: { status: this.buy.status } },
      );
    }
    if (!buyChanges.some((f) => args[f] !== undefined)) {
      throw new AgentError(
        'INVALID_REQUEST',
        `Nothing to change: give one of ${buyChanges.join(', ')}, or canceled: true.`,
      );
    }
    if (args['start_time'] !== undefined || args['end_time'] !== undefined)
      this.#moveFlight(args['start_time'] as string | undefined, args['end_time'] as string | undefined);
    for (const [i, pkg] of ((args['packages'] as PackageUpdate[] | undefined) ?? []).entries())
      this.#changePackage(pkg, `packages[${i}]`, args['packages'] as PackageUpdate[]);
    if (args['new_packages'] !== undefined) this.#addPackages(args['new_packages'] as PackageRequest[]);
    if (args['invoice_recipient'] !== undefined) {
      this.buy.details = { ...this.buy.details, invoice_recipient: args['invoice_recipient'] };
      this.history.push({ action: 'updated_invoice_recipient', summary: 'Invoice recipient changed.' });
    }
    // Last, so the flight and packages it resumes are already checked.
    if (args['paused'] === true) this.#pause();
    if (args['paused'] === false) this.#resume();
  }

  /** What the buy's status allows, else INVALID_STATE naming what it does allow. */
  #need(action: ValidAction, field: string): void {
    const allowed = validActions(this.buy.status);
    if (!allowed.includes(action)) {
      throw new AgentError('INVALID_STATE', `A ${this.buy.status} media buy cannot ${action.replace('_', ' ')}.`, {
        field,
        details: { status: this.buy.status, valid_actions: allowed },
      });
    }
  }

  #pause(): void {
    this.#need('pause', 'paused');
    this.buy.status = 'paused';
    this.history.push({ action: 'paused', summary: 'Paused by the buyer.' });
  }

  #resume(): void {
    this.#need('resume', 'paused');
    requireActiveAccount(this.#account);
    // By its flight, creatives or not: packages without any report them missing (get_media_buys).
    this.buy.status = resumedStatus(this.buy.start_time, this.#now);
    this.history.push({ action: 'resumed', summary: `Resumed (${this.buy.status}).` });
  }

  #moveFlight(start: string | undefined, end: string | undefined): void {
    this.#need('update_dates', start === undefined ? 'end_time' : 'start_time');
    const before = { start: this.buy.start_time, end: this.buy.end_time };
    const flight = movedFlight({ start, end }, before, this.#now);
    this.buy.start_time = flight.start;
    this.buy.end_time = flight.end;
    this.#checkPackagesWithin();
    this.history.push({
      action: 'updated_dates',
      summary: `Flight moved from ${before.start.toISOString()}–${before.end.toISOString()} to ${flight.start.toISOString()}–${flight.end.toISOString()}.`,
    });
  }

  #checkPackagesWithin(): void {
    const flight = { start: this.buy.start_time, end: this.buy.end_time };
    for (const pkg of this.packages)
      if (!pkg.cancellation)
        checkWithin({ start: pkg.start_time, end: pkg.end_time }, flight, `package ${pkg.package_id}`);
  }

  #changePackage(asked: PackageUpdate, at: string, all: PackageUpdate[]): void {
    this.#need('update_packages', 'packages');
    if (all.findIndex((p) => p.package_id === asked.package_id) !== all.indexOf(asked)) {
      throw new AgentError(
        'INVALID_REQUEST',
        `Package ${asked.package_id} is listed twice; give each package's changes once.`,
        { field: `${at}.package_id` },
      );
    }
    const pkg = this.packages.find((p) => p.package_id === asked.package_id);
    if (!pkg)
      throw new AgentError(
        'PACKAGE_NOT_FOUND',
        `Media buy ${this.buy.media_buy_id} has no package ${asked.package_id}.`,
        { field: `${at}.package_id` },
      );
    for (const field of unofferedPackageFields) {
      if (asked[field] !== undefined)
        throw new AgentError('UNSUPPORTED_FEATURE', `This seller does not take ${field} yet.`, {
          field: `${at}.${field}`,
        });
    }
    if (pkg.cancellation) {
      if (asked.canceled === true)
        throw new AgentError('NOT_CANCELLABLE', `Package ${pkg.package_id} is already canceled.`, {
          field: `${at}.canceled`,
        });
      throw new AgentError('INVALID_STATE', `Package ${pkg.package_id} is canceled; it takes no more changes.`, {
        field: `${at}.package_id`,
      });
    }
    const id = pkg.package_id;
    const entry = (action: string, summary: string) => this.history.push({ action, summary, package_id: id });
    const found = this.#products.find((p) => p.product_id === pkg.product_id);
    const option = found?.pricing_options.find((o) => o.pricing_option_id === pkg.pricing_option_id);

    if (asked.budget !== undefined) {
      this.#need('update_budget', `${at}.budget`);
      checkPositive(asked.budget, `${at}.budget`);
      if (option) checkMinimumSpend(asked.budget, option, `${at}.budget`);
      if (asked.budget > pkg.budget) requireActiveAccount(this.#account);
      entry(
        'updated_budget',
        `Budget of ${id} changed from ${this.buy.currency} ${pkg.budget} to ${this.buy.currency} ${asked.budget}.`,
      );
      pkg.budget = asked.budget;
    }
    if (asked.bid_price !== undefined) {
      if (!option)
        throw new AgentError(
          'PRODUCT_NOT_FOUND',
          `Product ${pkg.product_id} of package ${id} is no longer sold; its bid cannot change.`,
          { field: `${at}.bid_price` },
        );
      checkBid(asked.bid_price, option, at);
      entry('updated_packages', `Bid of ${id} changed from ${pkg.bid_price} to ${asked.bid_price}.`);
      pkg.bid_price = asked.bid_price;
    }
    if (asked.start_time !== undefined || asked.end_time !== undefined) {
      this.#need('update_dates', `${at}.start_time`);
      const own = packageFlight(asked, { start: this.buy.start_time, end: this.buy.end_time }, at, {
        start: pkg.start_time,
        end: pkg.end_time,
      });
      pkg.start_time = own.start;
      pkg.end_time = own.end;
      entry('updated_dates', `Flight of ${id} changed.`);
    }
    if (asked.targeting_overlay !== undefined && found) checkTargeting(asked.targeting_overlay, found, at);
    if (creativeFields.some((f) => asked[f] !== undefined)) {
      if (asked.canceled === true)
        throw new AgentError('INVALID_REQUEST', `Package ${id} is being canceled; it takes no creatives.`, {
          field: `${at}.canceled`,
        });
      // Uploading or assigning is what sync_creatives does, and it needs an active account; taking creatives off does not.
      if ((asked.creative_assignments?.length ?? 0) > 0 || asked.creatives) requireActiveAccount(this.#account);
      this.packageCreatives.push({
        package_id: id,
        formats: formatsOf(pkg, this.#products),
        at,
        ...(asked.creative_assignments ? { assignments: asked.creative_assignments } : {}),
        ...(asked.creatives ? { creatives: asked.creatives } : {}),
      });
    }
    const terms = termsOf(asked, pkg.details, updatableTerms);
    if (JSON.stringify(terms) !== JSON.stringify(pkg.details)) {
      pkg.details = terms;
      entry(
        'updated_packages',
        `Terms of ${id} changed (${updatableTerms.filter((k) => asked[k] !== undefined).join(', ')}).`,
      );
    }
    if (asked.paused !== undefined && asked.paused !== pkg.paused) {
      pkg.paused = asked.paused;
      entry(
        asked.paused ? 'package_paused' : 'package_resumed',
        `Package ${id} ${asked.paused ? 'paused' : 'resumed'}.`,
      );
    }
    if (asked.canceled === true) {
      pkg.cancellation = {
        canceled_at: this.#now.toISOString(),
        canceled_by: 'buyer',
        ...(asked.cancellation_reason === undefined ? {} : { reason: asked.cancellation_reason }),
      };
      entry(
        'package_canceled',
        `Package ${id} canceled${asked.cancellation_reason === undefined ? '' : `: ${asked.cancellation_reason}`}.`.slice(
          0,
          500,
        ),
      );
    }
    this.changedPackages.add(id);
  }

  #addPackages(requests: PackageRequest[]): void {
    this.#need('add_packages', 'new_packages');
    requireActiveAccount(this.#account);
    const { rows } = newPackages({
      requests,
      at: 'new_packages',
      flight: { start: this.buy.start_time, end: this.buy.end_time },
      products: this.#products,
      currency: this.buy.currency,
      mediaBuyId: this.buy.media_buy_id,
      firstPosition: this.packages.length,
    });
    this.added.push(...rows);
    this.packageCreatives.push(...creativesOfNewPackages(requests, rows, this.#products, 'new_packages'));
    for (const row of rows)
      this.history.push({
        action: 'package_added',
        summary: `Package ${row.package_id} added: ${row.product_id}, ${this.buy.currency} ${row.budget}.`,
        package_id: row.package_id,
      });
  }
}

/** Whether the request gives any package creatives (library ones or uploaded). */
function givesCreatives(args: Record<string, unknown>): boolean {
  const packages = [
    ...((args['packages'] as PackageUpdate[] | undefined) ?? []),
    ...((args['new_packages'] as PackageRequest[] | undefined) ?? []),
  ];
  return packages.some((pkg) => creativeFields.some((f) => pkg[f] !== undefined));
}
