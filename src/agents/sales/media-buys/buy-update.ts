import { AgentError } from '../../../protocol/errors.ts';
import type { ResolvedAccount } from '../../runtime/index.ts';
import { requireActiveAccount } from '../accounts/index.ts';
import type { Product } from '../catalog/index.ts';
import type { CreativeAssignment, PackageCreatives } from '../creatives/index.ts';
import { creativesOfNewPackages, formatsOf } from './creative-assignments.ts';
import type { BuyRow, HistoryEntry, PackageRow } from './media-buy.ts';
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
import { isTerminal, resumedStatus, validActions, type ValidAction } from './state.ts';

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

type Entry = Pick<HistoryEntry, 'action' | 'summary' | 'package_id'>;

/**
 * One update_media_buy worked out on a copy of the buy and its packages (update-media-buy.ts
 * writes it): nothing is written until it all holds.
 */
export class BuyUpdate {
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
export function givesCreatives(args: Record<string, unknown>): boolean {
  const packages = [
    ...((args['packages'] as PackageUpdate[] | undefined) ?? []),
    ...((args['new_packages'] as PackageRequest[] | undefined) ?? []),
  ];
  return packages.some((pkg) => creativeFields.some((f) => pkg[f] !== undefined));
}
