import { Type } from 'typebox';
import { Domain } from '../../protocol/wire/common.ts';
import { bulkBody, bulkResults, registryPage, registryQuery, saveResult } from '../entries/index.ts';
import { LookalikeOf, LookalikeReason } from '../homographs/index.ts';

const Source = Type.Union([Type.Literal('brand_json'), Type.Literal('enriched'), Type.Literal('community')]);

export const BrandResolution = Type.Object(
  {
    canonical_id: Type.String({ description: 'Stable identifier of the brand (also the `id` returned by saves).' }),
    canonical_domain: Type.String(),
    brand_name: Type.String(),
    keller_type: Type.String({ description: 'Brand-architecture type: master, sub_brand, endorsed or independent.' }),
    house_domain: Type.String({
      description: 'Domain of the owning house (the brand’s own domain when it is its own house).',
    }),
    source: Source,
  },
  { $id: 'BrandResolution', description: 'The canonical record a brand domain resolves to.' },
);

export const ResolveResponse = { $ref: 'BrandResolution#' };

export const BrandManifest = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 300 })),
    description: Type.Optional(Type.String({ maxLength: 5000 })),
    logos: Type.Optional(
      Type.Array(
        Type.Object({
          url: Type.String({ format: 'uri', maxLength: 2048 }),
          tags: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20 })),
        }),
        {
          maxItems: 50,
        },
      ),
    ),
    colors: Type.Optional(
      Type.Array(
        Type.Object({
          hex: Type.String({ pattern: '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$' }),
          type: Type.Optional(Type.String({ maxLength: 50 })),
        }),
        {
          maxItems: 50,
        },
      ),
    ),
  },
  { $id: 'BrandManifest', description: 'Brand identity data.' },
);

export const BrandEntry = Type.Object(
  {
    id: Type.String(),
    domain: Type.String(),
    brand_name: Type.String(),
    keller_type: Type.String(),
    house_domain: Type.String(),
    source: Source,
    brand_manifest: Type.Ref('BrandManifest'),
    has_manifest: Type.Boolean({
      description: 'Whether the brand has any identity data (a non-empty `brand_manifest`).',
    }),
    verified: Type.Boolean({
      description: 'True when the brand comes from its house’s own brand.json (source `brand_json`).',
    }),
    revision_number: Type.Integer({ minimum: 0 }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'BrandEntry', description: 'A brand as listed by the registry.' },
);

export { DomainQuery } from '../entries/index.ts';

export const BulkBody = bulkBody('At most 100 domains.');

export const BulkResults = bulkResults('BrandResolution');

export const SaveBody = Type.Object(
  {
    domain: Domain,
    brand_name: Type.String({ minLength: 1, maxLength: 300 }),
    brand_manifest: Type.Optional(Type.Ref('BrandManifest')),
  },
  { additionalProperties: false },
);

export const SaveResult = saveResult(
  { domain: Type.String() },
  'Only when an existing brand was updated.',
  'The saved brand.',
);

/** The listing's filter also takes `hosted`, a source the protocol's registry client names and no brand here has: it lists none. */
const ListedSource = Type.Union([...Source.anyOf, Type.Literal('hosted')], {
  description: '`hosted` (brands their owners host on a registry) matches no brand here.',
});

export const RegistryQuery = registryQuery(ListedSource, 'Case-insensitive substring of the domain or name.');

export const RegistryPage = registryPage({
  listKey: 'brands',
  entry: 'BrandEntry',
  total: 'Brands matching the filters.',
  counts: Type.Object(
    { brand_json: Type.Integer(), enriched: Type.Integer(), community: Type.Integer() },
    { description: 'Matching brands by source (ignoring the source filter).' },
  ),
  stats: Type.Object(
    {
      total: Type.Integer({ description: 'Brands matching `q`/`search` (ignoring the source filter).' }),
      hosted: Type.Integer({ description: 'Brands hosted by their owners on the registry: none here.' }),
      brand_json: Type.Integer(),
      enriched: Type.Integer(),
      community: Type.Integer(),
      houses: Type.Integer({ description: 'Brands that are their own house.' }),
      sub_brands: Type.Integer({ description: 'Brands of `keller_type` sub_brand.' }),
      with_manifest: Type.Integer({ description: 'Brands with identity data.' }),
    },
    { description: 'The counts the protocol’s registry client reads, over the brands matching `q`/`search`.' },
  ),
  cursor: 'Pass as `cursor` for the next page; null on the last page.',
  description: 'A page of the brand registry, ordered by domain.',
});

export const BrandJsonDocument = Type.Object(
  {
    domain: Type.String(),
    url: Type.String({ description: 'Where the document was fetched from.' }),
    fetched_at: Type.String({ format: 'date-time' }),
    data: Type.Record(Type.String(), Type.Unknown(), {
      description: 'The document exactly as fetched (where the protocol’s registry client reads it).',
    }),
    brand_json: Type.Record(Type.String(), Type.Unknown(), { description: 'The same document as `data`.' }),
  },
  { description: 'The brand.json last fetched for the domain.' },
);

/** The example brand the schemas' examples save or enrich, its logo and colour as each source names them. */
function acmeWidgets(logo: string, logoTags: string[], colorType: string) {
  return {
    domain: 'acme-widgets.example',
    brand_name: 'Acme Widgets',
    brand_manifest: {
      name: 'Acme Widgets',
      description: 'Widgets for every home.',
      logos: [{ url: logo, tags: logoTags }],
      colors: [{ hex: '#0055aa', type: colorType }],
    },
  };
}

export const Enrichment = Type.Object(
  {
    domain: Type.String(),
    brand_name: Type.String(),
    brand_manifest: Type.Ref('BrandManifest'),
    provider: Type.String({
      description:
        'Which source answered: `brand-data-api` (the configured third-party provider) or `site-metadata` (the domain’s own brand.json or home page).',
    }),
    source: Type.Literal('enriched'),
    stored: Type.Boolean({
      description:
        'False when the domain already has a community or authoritative entry, which enrichment never overwrites.',
    }),
    revision_number: Type.Optional(Type.Integer()),
  },
  {
    description: 'Brand data from the brand-data provider or the domain’s own public metadata.',
    examples: [
      {
        ...acmeWidgets('https://cdn.brand-data.example/acme-widgets/logo.svg', ['logo', 'light'], 'brand'),
        provider: 'brand-data-api',
        source: 'enriched',
        stored: true,
        revision_number: 1,
      },
    ],
  },
);

/** The save's body, as the legacy submission takes it: one shape for both, so moving to the save endpoint changes only the path. */
export const CommunitySubmissionBody = Type.Object(SaveBody.properties, {
  additionalProperties: false,
  examples: [acmeWidgets('https://acme-widgets.example/logo.svg', ['primary'], 'primary')],
});

export const CommunitySubmissionQueued = Type.Object(
  {
    status: Type.Literal('pending_review'),
    review_id: Type.String({
      format: 'uuid',
      description: 'The review an administrator decides (`/api/admin/reviews`).',
    }),
    domain: Type.String({ description: 'The domain, normalized as saves normalize it.' }),
    reason: Type.Union([LookalikeReason, Type.Null()], {
      description: 'Set when the domain also looks like a protected brand or a registered domain.',
    }),
    similar_to: Type.Union([LookalikeOf, Type.Null()]),
    message: Type.String(),
    deprecated: Type.Literal(true),
    successor: Type.Object(
      { method: Type.Literal('POST'), path: Type.Literal('/api/brands/save') },
      { description: 'The endpoint to use instead: it takes the same body and saves at once.' },
    ),
  },
  {
    description:
      'The brand is queued for a registry administrator; nothing is saved until one approves, which saves it as its submitter.',
    examples: [
      {
        status: 'pending_review',
        review_id: '0193a1c2-7d4e-7a10-8b2c-5e6f7a8b9c0d',
        domain: 'acme-widgets.example',
        reason: null,
        similar_to: null,
        message:
          'acme-widgets.example is queued for review by a registry administrator. This endpoint is deprecated: POST /api/brands/save takes the same body and saves at once.',
        deprecated: true,
        successor: { method: 'POST', path: '/api/brands/save' },
      },
    ],
  },
);

/** The longest search `GET /api/brands/find` takes: the spec's bound on `q` filters (section 8). */
export const maxFindText = 64;

export const FindQuery = Type.Object({
  q: Type.String({
    minLength: 1,
    maxLength: maxFindText,
    description:
      'A company or brand name, or part of one (at least 2 characters besides surrounding spaces, with a letter or digit); a domain finds its brand too.',
  }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10 })),
});

export const CompanySearchResult = Type.Object(
  {
    domain: Type.String(),
    canonical_domain: Type.String({ description: 'What the brand resolves to (its own domain).' }),
    canonical_id: Type.String({ description: 'The brand’s id, as resolve answers it.' }),
    brand_name: Type.String(),
    house_domain: Type.String({
      description: 'Domain of the owning house (the brand’s own when it is its own house).',
    }),
    keller_type: Type.String({ description: 'master, sub_brand, endorsed or independent.' }),
    source: Source,
    match: Type.Union([Type.Literal('exact'), Type.Literal('prefix'), Type.Literal('words'), Type.Literal('house')], {
      description:
        '`exact`: the name or domain (or one of the house’s domains for the brand) is the search; `prefix`: the name or domain starts with it; `words`: the name has each of its words as a word prefix; `house`: a brand of a house that matched.',
    }),
  },
  { description: 'A brand found by name.' },
);

export const FindResult = Type.Object(
  {
    q: Type.String({ description: 'The search as read (trimmed).' }),
    results: Type.Array(CompanySearchResult, {
      description: 'Best first: by match, then brands from brand.json, then shorter names.',
    }),
  },
  {
    description: 'Brands found by name, ranked.',
    examples: [
      {
        q: 'lumen',
        results: [
          {
            domain: 'lumen-drinks.example',
            canonical_domain: 'lumen-drinks.example',
            canonical_id: '0193a1c2-7d4e-7a10-8b2c-5e6f7a8b9c0d',
            brand_name: 'Lumen',
            house_domain: 'lumen-beverages.example',
            keller_type: 'master',
            source: 'brand_json',
            match: 'exact',
          },
        ],
      },
    ],
  },
);
