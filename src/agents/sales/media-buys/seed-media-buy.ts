import type { Queryable } from '../../../db/database.ts';
import { AgentError } from '../../../protocol/errors.ts';
import { checkPublishedRequest } from '../../runtime/index.ts';
import type { Product } from '../catalog/index.ts';
import { echoedFields } from './create-media-buy.ts';
import type { BuyRow } from './media-buy.ts';
import { newPackages } from './new-packages.ts';
import { checkFlight, type PackageRequest } from './package-terms.ts';
import * as sql from './sql.ts';
import { runningStatus, type MediaBuyStatus } from './state.ts';

const REQUEST = '/schemas/3.0.6/media-buy/create-media-buy-request.json';
const STATUS = '/schemas/3.0.6/enums/media-buy-status.json';
const defaultFlightMs = 30 * 24 * 3600 * 1000;

export interface MediaBuySeed {
  owner: string;
  /** The caller's account, as resolved (core/account.json's fields). */
  account: { account_id: string; sandbox?: unknown; brand?: unknown };
  mediaBuyId: string;
  fixture: Record<string, unknown>;
  products: readonly Product[];
  actor: string;
  now: Date;
}

/**
 * Books a buy under an id its caller names (a sandbox test controller's seed). The fixture is read
 * as the create_media_buy request that would have made it (packages, start_time, end_time, brand
 * and the other echoed fields; `flight: {start, end}` and a total `budget` are taken too), plus the
 * buy's `status` and its packages' own `package_id`s: it is checked as that request (published
 * schema, flight, the account's products and their terms) and written as a create writes, its
 * history naming `actor`. What it leaves out is filled in: the flight asap for 30 days, the brand
 * the account's, the status a new buy's, one package when it has none, a package's product the
 * first one, its pricing option the product's first, its budget its share of the fixture's budget
 * (else the option's minimum spend, else 1,000), an auction's bid the floor. Throws the AgentError
 * a create would answer for a bad fixture; false, writing nothing, when the buy's id or a
 * package's is taken.
 */
export async function seedMediaBuy(tx: Queryable, seed: MediaBuySeed): Promise<boolean> {
  const { fixture, now } = seed;
  const given = (
    typeof fixture['flight'] === 'object' && fixture['flight'] !== null ? fixture['flight'] : {}
  ) as Record<string, unknown>;
  const start = dateTime(fixture['start_time'] ?? given['start_time'] ?? given['start'], 'start') ?? 'asap';
  // A start the schema will refuse still needs some end to be checked beside it.
  const from =
    typeof start === 'string' && start !== 'asap' && !Number.isNaN(Date.parse(start)) ? new Date(start) : now;
  const end =
    dateTime(fixture['end_time'] ?? given['end_time'] ?? given['end'], 'end') ??
    new Date(from.getTime() + defaultFlightMs).toISOString();
  const request: Record<string, unknown> = {
    ...Object.fromEntries(echoedFields.filter((f) => fixture[f] !== undefined).map((f) => [f, fixture[f]])),
    idempotency_key: 'seeded-by-test-controller',
    account: { account_id: seed.account.account_id },
    brand: fixture['brand'] ?? seed.account.brand,
    start_time: start,
    end_time: end,
    packages: defaultPackages(fixture['packages'], totalOf(fixture['budget']), seed.products),
  };
  checkPublishedRequest(REQUEST, request, 'fixture');
  if (fixture['status'] !== undefined) checkPublishedRequest(STATUS, fixture['status'], 'fixture.status');
  const requests = request['packages'] as Array<PackageRequest & { package_id?: unknown }>;
  const named = requests.map((r, i) => namedPackageId(r.package_id, `fixture.packages[${i}].package_id`));
  if (new Set(named.filter(Boolean)).size < named.filter(Boolean).length)
    throw new AgentError('INVALID_REQUEST', 'Two packages of the fixture have one package_id.', {
      field: 'fixture.packages',
    });

  for (const [i, r] of requests.entries()) {
    const given = (['creative_assignments', 'creatives'] as const).find((f) => r[f] !== undefined);
    if (given)
      throw new AgentError(
        'UNSUPPORTED_FEATURE',
        'A seeded media buy takes no creatives: seed them with seed_creative, then assign them with sync_creatives.',
        { field: `fixture.packages[${i}].${given}` },
      );
  }

  const flight = checkFlight(start as string, end as string, now);
  const { rows, currency } = newPackages({
    requests,
    at: 'fixture.packages',
    flight,
    products: seed.products,
    currency: undefined,
    mediaBuyId: seed.mediaBuyId,
    firstPosition: 0,
  });
  for (const [i, row] of rows.entries()) row.package_id = named[i] ?? row.package_id;
  if (
    (
      await sql.takenIds(
        tx,
        seed.mediaBuyId,
        rows.map((r) => r.package_id),
      )
    ).length > 0
  )
    return false;

  const status =
    (fixture['status'] as MediaBuyStatus | undefined) ?? runningStatus({ creatives: 0, start: flight.start }, now);
  const buy: BuyRow = {
    seq: 0,
    media_buy_id: seed.mediaBuyId,
    owner: seed.owner,
    account_id: seed.account.account_id,
    status,
    revision: 1,
    currency,
    sandbox: seed.account.sandbox === true,
    start_time: flight.start,
    end_time: flight.end,
    details: Object.fromEntries(echoedFields.filter((f) => request[f] !== undefined).map((f) => [f, request[f]])),
    cancellation: status === 'canceled' ? { canceled_at: now.toISOString(), canceled_by: 'seller' } : null,
    confirmed_at: now,
    updated_at: now,
  };
  const total = rows.reduce((s, r) => s + r.budget, 0);
  await sql.insertNewBuy(tx, buy, rows, {
    revision: 1,
    action: 'created',
    summary: `Seeded (${status}) with ${rows.length} package${rows.length === 1 ? '' : 's'}, ${currency} ${total}.`,
    status,
    actor: seed.actor,
    at: now,
  });
  return true;
}

function namedPackageId(id: unknown, field: string): string | undefined {
  if (id === undefined) return undefined;
  if (typeof id !== 'string' || id.length === 0)
    throw new AgentError('INVALID_REQUEST', `${field} must be a non-empty string.`, { field });
  return id;
}

/** A fixture's date (YYYY-MM-DD, the start or end of that UTC day) or date-time; anything else as given, for the schema to refuse. */
function dateTime(value: unknown, side: 'start' | 'end'): unknown {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value))
    return `${value}T${side === 'start' ? '00:00:00' : '23:59:59'}Z`;
  return value;
}

/** A fixture's total budget: a number, or `{total}` / `{amount}`. */
function totalOf(budget: unknown): number | undefined {
  if (typeof budget === 'number') return budget;
  if (typeof budget !== 'object' || budget === null) return undefined;
  const { total, amount } = budget as Record<string, unknown>;
  return typeof total === 'number' ? total : typeof amount === 'number' ? amount : undefined;
}

/** The fixture's packages (one when it has none) with their product, pricing option, budget and bid filled in where left out. */
function defaultPackages(given: unknown, total: number | undefined, products: readonly Product[]): unknown {
  if (given !== undefined && !Array.isArray(given)) return given;
  const packages = (given as unknown[] | undefined) ?? [{}];
  return packages.map((pkg, i) => {
    if (typeof pkg !== 'object' || pkg === null || Array.isArray(pkg)) return pkg;
    const filled = { ...(pkg as Record<string, unknown>) };
    const field = `fixture.packages[${i}].product_id`;
    filled['product_id'] ??= products[0]?.product_id;
    const product = products.find((p) => p.product_id === filled['product_id']);
    if (!product)
      throw new AgentError(
        'PRODUCT_NOT_FOUND',
        `There is no product ${String(filled['product_id'])} for this account; seed it with seed_product first.`,
        { field },
      );
    filled['pricing_option_id'] ??= product.pricing_options[0]?.pricing_option_id;
    const option = product.pricing_options.find((o) => o.pricing_option_id === filled['pricing_option_id']);
    filled['budget'] ??= total !== undefined ? total / packages.length : (option?.min_spend_per_package ?? 1000);
    if (option && option.fixed_price === undefined && filled['bid_price'] === undefined)
      filled['bid_price'] = option.floor_price ?? 1;
    return filled;
  });
}
