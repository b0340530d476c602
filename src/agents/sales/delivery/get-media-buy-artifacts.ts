import { createHash } from 'node:crypto';
import { AgentError } from '../../../protocol/errors.ts';
import {
  accountRefInput,
  idInput,
  largePageRequestInput,
  paginateLarge,
  publishedSchemas,
  type AgentTask,
  type PageRequest,
  type TaskArguments,
} from '../../runtime/index.ts';
import { ownerOf } from '../accounts/index.ts';
import type { Product } from '../catalog/index.ts';
import { buyOf } from '../media-buys/index.ts';
import type { Shelf } from '../offering.ts';
import { simulateBuy } from './simulate.ts';
import { simBuyOf, storedBuys } from './stored-buy.ts';
import { utcDays } from './utc-days.ts';

/** The longest span read at once: a year of days per package bounds the work of one call. */
const maxDays = 366;

interface ArtifactsArgs extends TaskArguments {
  media_buy_id: string;
  package_ids?: string[];
  failures_only?: boolean;
  time_range?: { start?: string; end?: string };
  pagination?: PageRequest;
}

/**
 * `get_media_buy_artifacts` (content-standards/get-media-buy-artifacts-request.json): where a
 * delivered buy ran, as content a verification agent can judge. This seller collects one
 * artifact per package per UTC day that package delivered (its simulated delivery): the page of
 * one of the properties its product sells, by turns, described by the product. It runs no local
 * model, so every `local_verdict` is `unevaluated` and `failures_only` finds none, as the
 * protocol says of such sellers.
 */
export function getMediaBuyArtifactsTask(shelf: Shelf): AgentTask<ArtifactsArgs> {
  return {
    name: 'get_media_buy_artifacts',
    description:
      'The content your media buy ran next to, one artifact per package per day delivered (by package_ids, within time_range), for validate_content_delivery on a governance agent. local_verdict is unevaluated: this seller runs no local model. Paged up to 10,000.',
    input: {
      type: 'object',
      properties: {
        media_buy_id: idInput,
        package_ids: { type: 'array', minItems: 1, maxItems: 1000, items: idInput },
        failures_only: { type: 'boolean' },
        time_range: {
          type: 'object',
          properties: { start: { type: 'string', format: 'date-time' }, end: { type: 'string', format: 'date-time' } },
        },
        pagination: largePageRequestInput,
        account: accountRefInput,
      },
      required: ['media_buy_id'],
      additionalProperties: true,
    },
    ...publishedSchemas('content-standards/get-media-buy-artifacts'),
    mutates: false,
    async handler(args, ctx) {
      const buy = await buyOf(ctx.db, ownerOf(ctx.principal), args.media_buy_id);
      if (!buy || (ctx.account && ctx.account.account_id !== buy.account_id))
        throw new AgentError('MEDIA_BUY_NOT_FOUND', `No media buy ${args.media_buy_id} of yours.`, {
          field: 'media_buy_id',
        });
      const [stored] = await storedBuys(ctx.db, [buy]);
      const { products } = await shelf(ctx.db, { account_id: buy.account_id, sandbox: buy.sandbox });
      const simulated = simulateBuy(simBuyOf(stored!, products), ctx.clock.now());
      const productOf = new Map(
        stored!.packages.map((p) => [p.package_id, products.find((x) => x.product_id === p.product_id)]),
      );
      const from = new Date(Math.max(simulated.firstActivity.getTime(), instant(args.time_range?.start, 0)));
      const to = new Date(Math.min(ctx.clock.now().getTime(), instant(args.time_range?.end, Infinity)));
      const days = from < to ? utcDays(from, to) : [];
      if (days.length > maxDays)
        throw new AgentError('INVALID_REQUEST', `Ask for at most ${maxDays} days at once.`, { field: 'time_range' });
      const wanted = args.package_ids && new Set(args.package_ids);
      let deliveries = 0;
      const collected = [];
      for (const pkg of simulated.packages) {
        if (wanted && !wanted.has(pkg.package_id)) continue;
        const product = productOf.get(pkg.package_id);
        for (const [n, day] of days.entries()) {
          const { impressions } = pkg.between(day.from, day.to);
          if (impressions <= 0) continue;
          deliveries += impressions;
          if (product) collected.push(artifactOf(buy.media_buy_id, pkg.package_id, product, day.date, n));
        }
      }
      // No local model: nothing is a local failure.
      const shown = args.failures_only ? [] : collected;
      const { page, pagination } = paginateLarge(shown, args.pagination);
      return {
        media_buy_id: buy.media_buy_id,
        artifacts: page,
        collection_info: {
          total_deliveries: deliveries,
          total_collected: collected.length,
          returned_count: page.length,
          effective_rate: deliveries === 0 ? 0 : collected.length / deliveries,
        },
        pagination,
      };
    },
  };
}

const instant = (iso: string | undefined, otherwise: number): number => {
  const t = iso === undefined ? NaN : Date.parse(iso);
  return Number.isNaN(t) ? otherwise : t;
};

/**
 * The artifact of a package's day: one of the properties its product sells, by turns (day `n`),
 * named by a stable rid made from its publisher and id (the seller keeps no registry rids).
 */
function artifactOf(mediaBuyId: string, packageId: string, product: Product, date: string, n: number) {
  const selectors = product.publisher_properties;
  const selector = selectors[n % Math.max(1, selectors.length)];
  const domain = selector?.publisher_domain ?? 'unknown';
  const propertyId =
    selector?.selection_type === 'by_id' ? selector.property_ids[n % selector.property_ids.length] : undefined;
  const channel = product.channels?.[0];
  return {
    record_id: `${mediaBuyId}:${packageId}:${date}`,
    timestamp: `${date}T00:00:00.000Z`,
    package_id: packageId,
    artifact: {
      property_rid: stableRid(`${domain}/${propertyId ?? ''}`),
      artifact_id: `${packageId}-${date}`,
      assets: [
        { type: 'text', role: 'title', content: product.name },
        ...(product.description ? [{ type: 'text', role: 'paragraph', content: product.description }] : []),
      ],
      metadata: { author: domain },
    },
    ...(channel ? { channel } : {}),
    local_verdict: 'unevaluated',
  };
}

/** A UUID (v8 layout) of a name: the same property always gets the same rid. */
function stableRid(name: string): string {
  const hex = createHash('sha256').update(`ap:property:${name}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
