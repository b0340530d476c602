import type { Queryable } from '../../../db/database.ts';
import { byPublisher, sellsListed, type PropertyListReader, type PropertyListRef } from '../property-list-filter.ts';
import { AgentError } from '../../../protocol/errors.ts';
import {
  accountRefInput,
  errorObject,
  pageRequestInput,
  paginate,
  textInput,
  publishedSchemas,
  type AgentTask,
  type PageRequest,
  type TaskArguments,
} from '../../runtime/index.ts';
import { ownerOf } from '../accounts/index.ts';
import { catalogItems, matchCatalog, type BuyerCatalog, type CatalogMatch } from '../buyer-catalogs/index.ts';
import type { Chosen, Shelf } from '../offering.ts';
import { makeProposal, proposalSql, refineProposals, type Match, type Proposal } from '../proposals/index.ts';
import { applyFilters, type ProductFilters } from '../product-filters.ts';
import { refine, type RefineEntry } from '../refine.ts';

interface GetProductsArgs {
  /** The input schema's default fills it in: brief. */
  buying_mode: 'brief' | 'wholesale' | 'refine';
  brief?: string;
  refine?: RefineEntry[];
  filters?: ProductFilters;
  catalog?: BuyerCatalog;
  property_list?: PropertyListRef;
  preferred_delivery_types?: string[];
  fields?: string[];
  pagination?: PageRequest;
}

/**
 * `get_products` (spec section 4; media-buy/get-products-request.json): a brief ranks the catalog
 * by text search and answers the products it matches, with a proposal (a media plan over the best
 * of them, kept in the seller's registry for create_media_buy's proposal_id); a brief that
 * matches nothing answers no products and a `message` saying so and what to try; `wholesale`
 * answers the catalog as it is; `refine` applies change requests to a previous answer (proposal
 * entries from the registry). Filters narrow every mode.
 */
export function getProductsTask(
  shelf: Shelf,
  propertyLists?: PropertyListReader,
): AgentTask<GetProductsArgs & TaskArguments> {
  return {
    name: 'get_products',
    description:
      'Discover advertising products. buying_mode "brief" (the default) ranks products against a natural-language brief; "wholesale" lists the catalog (no brief); "refine" applies refine[] change requests (include, omit, more_like_this; request-level asks). filters narrow any mode.',
    input: {
      type: 'object',
      properties: {
        // v3 clients name the mode; the spec's calls (and pre-v3 clients) do not, and mean a brief.
        buying_mode: { type: 'string', enum: ['brief', 'wholesale', 'refine'], default: 'brief' },
        brief: textInput('prose', 'What the campaign wants, in words'),
        brand: {
          type: 'object',
          description: 'core/brand-ref.json: the advertiser, by domain.',
          properties: { domain: { type: 'string' } },
        },
        refine: {
          type: 'array',
          items: { type: 'object', properties: { ask: textInput('prose', 'What the buyer asks for, in words') } },
          description: 'Change requests (buying_mode refine).',
        },
        filters: { type: 'object', description: 'core/product-filters.json.' },
        catalog: {
          type: 'object',
          description:
            'core/catalog.json: {type, items} inline, or {catalog_id, type} synced with sync_catalogs to the account; only products that take its type answer, with catalog_match.',
        },
        preferred_delivery_types: { type: 'array', items: { type: 'string' } },
        account: accountRefInput,
        fields: {
          type: 'array',
          items: { type: 'string' },
          description: 'Product fields to answer; product_id and name always.',
        },
        pagination: pageRequestInput,
      },
      additionalProperties: true,
    },
    ...publishedSchemas('media-buy/get-products'),
    mutates: false,
    // Products never depend on the account here (capabilities: required_for_products false): it only says whether the answer is sandbox.
    accountUse: 'informs',
    async handler(args, ctx) {
      checkMode(args);
      const { listed: products, search, standardFormatIds } = await shelf(ctx.db, ctx.account);

      const now = ctx.clock.now();
      let chosen: Chosen[];
      let refinementApplied: ReturnType<typeof refine>['applied'] | undefined;
      let matches: Match[] | undefined;
      let proposals: Proposal[] = [];
      if (args.buying_mode === 'refine') {
        ({ chosen, applied: refinementApplied } = refine(search, products, args.refine!));
        const fromRegistry = await refineProposals(ctx.db, ownerOf(ctx.principal), args.refine!, now);
        refinementApplied = refinementApplied.map((entry, i) => fromRegistry.applied.get(i) ?? entry);
        proposals = fromRegistry.proposals;
      } else if (args.buying_mode === 'brief' && args.brief?.trim()) {
        const ranked = search.rank(args.brief);
        if (ranked.length === 0) return nothingMatched(args.brief, ctx.account);
        matches = ranked;
        chosen = ranked.map((r) => ({ product: r.product, relevance: `Matches the brief on: ${r.terms.join(', ')}.` }));
      } else chosen = products.map((product) => ({ product }));

      // A catalog narrows every mode to the products that can carry its items.
      let catalogMatches: Map<string, CatalogMatch> | undefined;
      if (args.catalog) {
        catalogMatches = matchCatalog(
          products,
          args.catalog.type,
          await catalogItems(ctx.db, ctx.account, args.catalog),
        );
        chosen = chosen.filter((c) => catalogMatches!.has(c.product.product_id));
      }

      // A buyer's property list narrows every mode to the products that sell one of its properties.
      const listed =
        args.property_list && propertyLists
          ? await propertyLists(ctx.db, ctx.principal, args.property_list)
          : undefined;
      if (listed) {
        const byDomain = byPublisher(listed);
        chosen = chosen.filter((c) => sellsListed(c.product, byDomain));
      }

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
      // One plan per brief, made with its first page (a later page is the same brief read further).
      if (matches && !args.pagination?.cursor) {
        const proposal = await propose(ctx.db, ownerOf(ctx.principal), matches, answer, args.brief!, now);
        if (proposal) proposals = [proposal];
      }
      return {
        products: page.map((c) => project(c, args.fields, catalogMatches?.get(c.product.product_id))),
        ...(catalogMatches ? { catalog_applied: true } : {}),
        ...(listed ? { property_list_applied: true } : {}),
        ...(proposals.length > 0 ? { proposals } : {}),
        ...(refinementApplied ? { refinement_applied: refinementApplied } : {}),
        ...(ignored.length > 0
          ? {
              errors: ignored.map((name) =>
                errorObject(
                  new AgentError(
                    'UNSUPPORTED_FEATURE',
                    `This seller cannot evaluate filters.${name}; it narrowed nothing.`,
                    { field: `filters.${name}` },
                  ),
                ),
              ),
            }
          : {}),
        pagination,
        sandbox: ctx.account?.['sandbox'] === true,
      };
    },
  };
}

/**
 * The answer to a brief none of whose words matches any product, even forgiving typos: no
 * products rather than the catalog unranked, and a `message` (protocol-envelope.json's summary)
 * saying what to try.
 */
function nothingMatched(brief: string, account: Record<string, unknown> | undefined): Record<string, unknown> {
  const shown = brief.trim().replaceAll(/\s+/g, ' ');
  return {
    products: [],
    message: `No product matches the brief "${shown.length > 120 ? `${shown.slice(0, 119)}…` : shown}". Try words for a channel (display, video, ctv, audio, native), a subject (news, sports, recipes, local) or a format, or buying_mode "wholesale" to see the whole catalog.`,
    sandbox: account?.['sandbox'] === true,
  };
}

/** The proposal for a brief's matches that the filters kept, in the registry for create_media_buy; undefined when none can be priced. */
async function propose(
  db: Queryable,
  owner: string,
  matches: readonly Match[],
  kept: readonly Chosen[],
  brief: string,
  now: Date,
): Promise<Proposal | undefined> {
  const admitted = new Set(kept.map((c) => c.product));
  const made = makeProposal(
    matches.filter((m) => admitted.has(m.product)),
    brief,
    now,
  );
  if (!made) return undefined;
  await proposalSql.insertProposal(db, {
    proposal_id: made.proposal.proposal_id,
    owner,
    proposal: made.proposal,
    terms: made.terms,
    currency: made.currency,
    created_at: now,
    expires_at: new Date(made.proposal.expires_at),
  });
  return made.proposal;
}

function checkMode(args: GetProductsArgs): void {
  if (args.buying_mode === 'wholesale' && args.brief !== undefined) {
    throw new AgentError(
      'INVALID_REQUEST',
      'A wholesale request takes no brief: drop the brief, or use buying_mode "brief".',
      { field: 'brief' },
    );
  }
  if (args.buying_mode === 'refine' && args.refine === undefined) {
    throw new AgentError('INVALID_REQUEST', 'buying_mode "refine" needs refine[], the change requests to apply.', {
      field: 'refine',
    });
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
  return chosen
    .map((c, i) => ({ c, i }))
    .sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i)
    .map(({ c }) => c);
}

// The request schema promises product_id and name whatever `fields` asks; core/product.json, which
// the answer must still meet, requires these too.
const requiredFields = [
  'product_id',
  'name',
  'description',
  'publisher_properties',
  'format_ids',
  'delivery_type',
  'pricing_options',
  'reporting_capabilities',
];

/** The product as answered: the asked fields (and those every product must carry), and why it fits the brief. */
function project(
  { product, relevance }: Chosen,
  fields: string[] | undefined,
  catalogMatch: CatalogMatch | undefined,
): Record<string, unknown> {
  const whole: Record<string, unknown> = {
    ...product,
    ...(relevance ? { brief_relevance: relevance } : {}),
    ...(catalogMatch ? { catalog_match: catalogMatch } : {}),
  };
  if (!fields) return whole;
  const wanted = new Set([...requiredFields, ...(catalogMatch ? ['catalog_match'] : []), ...fields]);
  return Object.fromEntries(Object.entries(whole).filter(([key]) => wanted.has(key)));
}
