import { AgentError } from '../../../protocol/errors.ts';
import { checkPublishedRequest, errorObject, pageRequestInput, paginate, textInput, type AgentTask, type PageRequest } from '../../runtime/index.ts';
import type { Chosen, Shelf } from '../offering.ts';
import { applyFilters, type ProductFilters } from '../product-filters.ts';
import { refine, type RefineEntry } from '../refine.ts';

const REQUEST = '/schemas/3.0.6/media-buy/get-products-request.json';

interface GetProductsArgs {
  buying_mode?: 'brief' | 'wholesale' | 'refine';
  brief?: string;
  refine?: RefineEntry[];
  filters?: ProductFilters;
  preferred_delivery_types?: string[];
  fields?: string[];
  pagination?: PageRequest;
}

/**
 * `get_products` (spec section 4; media-buy/get-products-request.json): a brief ranks the catalog
 * by text search and answers the products it matches (all of them, in catalog order, when it
 * matches none); `wholesale` answers the catalog as it is; `refine` applies change requests to a
 * previous answer. Filters narrow every mode.
 */
export function getProductsTask(shelf: Shelf): AgentTask {
  return {
    name: 'get_products',
    description:
      'Discover advertising products. buying_mode "brief" (the default) ranks products against a natural-language brief; "wholesale" lists the catalog (no brief); "refine" applies refine[] change requests (include, omit, more_like_this; request-level asks). filters narrow any mode.',
    input: {
      type: 'object',
      properties: {
        buying_mode: { type: 'string', enum: ['brief', 'wholesale', 'refine'], description: 'Defaults to brief.' },
        brief: textInput('prose', 'What the campaign wants, in words'),
        brand: { type: 'object', description: 'core/brand-ref.json: the advertiser, by domain.', properties: { domain: { type: 'string' } } },
        refine: { type: 'array', items: { type: 'object', properties: { ask: textInput('prose', 'What the buyer asks for, in words') } }, description: 'Change requests (buying_mode refine).' },
        filters: { type: 'object', description: 'core/product-filters.json.' },
        preferred_delivery_types: { type: 'array', items: { type: 'string' } },
        account: { type: 'object', description: 'core/account-ref.json.' },
        fields: { type: 'array', items: { type: 'string' }, description: 'Product fields to answer; product_id and name always.' },
        pagination: pageRequestInput,
      },
      additionalProperties: true,
    },
    output: { $ref: '/schemas/3.0.6/media-buy/get-products-response.json' },
    mutates: false,
    async handler(rawArgs, ctx) {
      // v3 clients name the mode; the spec's calls (and pre-v3 clients) do not, and mean a brief.
      const args = { ...rawArgs, buying_mode: rawArgs['buying_mode'] ?? 'brief' } as GetProductsArgs & Record<string, unknown>;
      checkPublishedRequest(REQUEST, args);
      checkMode(args);
      const { listed: products, search, standardFormatIds } = await shelf(ctx.db, ctx.account);

      let chosen: Chosen[];
      let refinementApplied: ReturnType<typeof refine>['applied'] | undefined;
      if (args.buying_mode === 'refine') ({ chosen, applied: refinementApplied } = refine(search, products, args.refine!));
      else if (args.buying_mode === 'brief' && args.brief?.trim()) {
        const ranked = search.rank(args.brief);
        chosen = ranked.length > 0 ? ranked.map((r) => ({ product: r.product, relevance: `Matches the brief on: ${r.terms.join(', ')}.` })) : products.map((product) => ({ product }));
      } else chosen = products.map((product) => ({ product }));

      const { products: admitted, ignored } = applyFilters(
        chosen.map((c) => c.product),
        args.filters,
        standardFormatIds,
      );
      const kept = new Set(admitted);
      const answer = preferred(
        chosen.filter((c) => kept.has(c.product)),
        args.preferred_delivery_types,
      );
      const { page, pagination } = paginate(answer, args.pagination);
      return {
        products: page.map((c) => project(c, args.fields)),
        ...(refinementApplied ? { refinement_applied: refinementApplied } : {}),
        ...(ignored.length > 0
          ? {
              errors: ignored.map((name) =>
                errorObject(new AgentError('UNSUPPORTED_FEATURE', `This seller cannot evaluate filters.${name}; it narrowed nothing.`, { field: `filters.${name}` })),
              ),
            }
          : {}),
        pagination,
        sandbox: ctx.account?.['sandbox'] === true,
      };
    },
  };
}

function checkMode(args: GetProductsArgs): void {
  if (args.buying_mode === 'wholesale' && args.brief !== undefined) {
    throw new AgentError('INVALID_REQUEST', 'A wholesale request takes no brief: drop the brief, or use buying_mode "brief".', { field: 'brief' });
  }
  if (args.buying_mode === 'refine' && args.refine === undefined) {
    throw new AgentError('INVALID_REQUEST', 'buying_mode "refine" needs refine[], the change requests to apply.', { field: 'refine' });
  }
  if (args.buying_mode !== 'refine' && args.refine !== undefined) {
    throw new AgentError('INVALID_REQUEST', 'refine[] is only read with buying_mode "refine".', { field: 'refine' });
  }
}

/** Products of the preferred delivery types first, in the buyer's order of preference; the rest keep their rank. */
function preferred(chosen: Chosen[], types: string[] | undefined): Chosen[] {
  if (!types?.length) return chosen;
  const rank = (c: Chosen) => {
    const at = types.indexOf(c.product.delivery_type);
    return at < 0 ? types.length : at;
  };
  return chosen.map((c, i) => ({ c, i })).sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i).map(({ c }) => c);
}

// The request schema promises product_id and name whatever `fields` asks; core/product.json, which
// the answer must still meet, requires these too.
const requiredFields = ['product_id', 'name', 'description', 'publisher_properties', 'format_ids', 'delivery_type', 'pricing_options', 'reporting_capabilities'];

/** The product as answered: the asked fields (and those every product must carry), and why it fits the brief. */
function project({ product, relevance }: Chosen, fields: string[] | undefined): Record<string, unknown> {
  const whole: Record<string, unknown> = { ...product, ...(relevance ? { brief_relevance: relevance } : {}) };
  if (!fields) return whole;
  const wanted = new Set([...requiredFields, ...fields]);
  return Object.fromEntries(Object.entries(whole).filter(([key]) => wanted.has(key)));
}
