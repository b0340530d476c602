import { Type } from 'typebox';
import { Cursor, Domain } from '../../protocol/wire/common.ts';
import { agentTypes } from './agent-types.ts';
import { DESCRIPTION_MAX, NAME_MAX } from './profile.ts';
import { visibilities } from './visibility.ts';

/** Wire schemas of the agent catalog (spec sections 1, 2 and 4; the list entry's other fields are ours). */

const AgentUrl = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'The agent’s URL (its MCP or A2A endpoint); kept in canonical form.',
  examples: ['https://sales.meridian-media.example/mcp'],
});
const AgentType = Type.Enum([...agentTypes], { description: 'What the agent does.' });
const Visibility = Type.Enum([...visibilities], {
  description: 'public: everyone; members_only: also API-tier members; private: only its own organization.',
});
const Name = Type.String({
  minLength: 1,
  maxLength: NAME_MAX,
  pattern: '\\S',
  examples: ['Meridian Media sales agent'],
});
const Description = Type.String({
  maxLength: DESCRIPTION_MAX,
  examples: ['Premium news and lifestyle inventory, display and video.'],
});

export const EnrollBody = Type.Object(
  {
    agent_url: AgentUrl,
    type: AgentType,
    name: Name,
    description: Type.Optional(Description),
    visibility: Type.Optional(Visibility),
  },
  {
    additionalProperties: false,
    examples: [
      {
        agent_url: 'https://sales.meridian-media.example/mcp',
        type: 'sales',
        name: 'Meridian Media sales agent',
        visibility: 'public',
      },
    ],
  },
);

export const ChangeBody = Type.Object(
  {
    type: Type.Optional(AgentType),
    name: Type.Optional(Name),
    description: Type.Optional(Type.Union([Description, Type.Null()])),
    visibility: Type.Optional(Visibility),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ visibility: 'members_only' }] },
);

export const AgentUrlQuery = Type.Object({ agent_url: AgentUrl });

/** What every enrichment adds, as probing and the authorization index know it. */
const Enrichment = Type.Record(Type.String(), Type.Unknown());
const DescribedEnrichment = (description: string) => Type.Record(Type.String(), Type.Unknown(), { description });

export const AgentEntry = Type.Object(
  {
    agent_url: Type.String(),
    url: Type.String({ description: 'agent_url again, as the protocol’s registry client reads it.' }),
    name: Type.String(),
    type: AgentType,
    description: Type.Optional(Type.String()),
    visibility: Visibility,
    source: Type.Literal('registered', {
      description:
        'Every agent of the catalog was enrolled by a member organization (an agent only publishers’ adagents.json name is not listed here).',
    }),
    operator: Type.Object(
      { slug: Type.String(), name: Type.String() },
      { description: 'The member organization that enrolled it.' },
    ),
    member: Type.Object(
      { slug: Type.String(), display_name: Type.String() },
      { description: 'operator again, as the registry client reads it.' },
    ),
    enrolled_at: Type.String({ format: 'date-time' }),
    added_date: Type.String({
      format: 'date-time',
      description: 'enrolled_at again, as the registry client reads it.',
    }),
    updated_at: Type.String({ format: 'date-time' }),
    health: Type.Optional(
      DescribedEnrichment(
        'health=true: the last probe (reachable, latency_ms, protocols, last_probed_at, error) and, as the registry client reads it, online, checked_at (null before the first probe), ' +
          'response_time_ms and tools_count (the tasks it listed, at most 500 counted).',
      ),
    ),
    capabilities: Type.Optional(
      DescribedEnrichment(
        'capabilities=true: when get_ap_capabilities was fetched and whether that is stale; tools_count (0 until the agent listed its tasks); measurement_capabilities.metrics for a measurement agent.',
      ),
    ),
    creative_capabilities: Type.Optional(Type.Union([Enrichment, Type.Null()])),
    signals_capabilities: Type.Optional(Type.Union([Enrichment, Type.Null()])),
    metrics: Type.Optional(Type.Array(Enrichment)),
    properties: Type.Optional(Enrichment),
    publisher_domains: Type.Optional(
      Type.Array(Type.String(), {
        maxItems: 100,
        description:
          'properties=true: the publishers whose adagents.json authorizes it, by domain (the first 100; property_summary counts all).',
      }),
    ),
    property_summary: Type.Optional(
      Type.Object(
        {
          total_count: Type.Integer({ description: 'Properties it is authorized for.' }),
          count_by_type: Type.Record(Type.String(), Type.Integer(), {
            description: 'Those properties by property type.',
          }),
          tags: Type.Array(Type.String(), { maxItems: 100, description: 'Their tags (the first 100, sorted).' }),
          publisher_count: Type.Integer(),
        },
        { description: 'properties=true: what it is authorized to sell, as the registry client reads it.' },
      ),
    ),
    compliance: Type.Optional(
      Type.Union([Enrichment, Type.Null()], {
        description:
          'compliance=true: status, checked_at and the checks of the last probe, and the summary the registry client reads (lifecycle_stage, tracks, streak_days, last_checked_at, headline, verified, verified_roles).',
      }),
    ),
    verification: Type.Optional(Type.Union([Enrichment, Type.Null()])),
  },
  { $id: 'CatalogAgent', description: 'An enrolled agent, with the enrichments asked for.' },
);

const Flag = Type.Boolean({ description: 'Adds this enrichment to each agent.' });
const Repeatable = (description: string) =>
  Type.Union(
    [
      Type.String({ minLength: 1, maxLength: 200 }),
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100 }),
    ],
    { description },
  );

/** The client's types beyond the catalog's: `unknown` and the legacy `si`, which no enrolled agent has. */
const QueriedType = Type.Enum([...agentTypes, 'unknown', 'si'], {
  description: 'Only agents of this type (unknown and si, which the protocol’s registry client may send, match none).',
});

export const ListQuery = Type.Object({
  type: Type.Optional(QueriedType),
  capabilities: Type.Optional(
    Type.Boolean({
      description:
        'Adds creative_capabilities, signals_capabilities and (measurement agents) metrics[] from the agent’s get_ap_capabilities.',
    }),
  ),
  health: Type.Optional(Flag),
  properties: Type.Optional(Flag),
  compliance: Type.Optional(Flag),
  verification: Type.Optional(Flag),
  metric_id: Type.Optional(
    Repeatable(
      'Measurement agents offering any of these metrics (exact metric_id; repeat the parameter for more). Implies type=measurement.',
    ),
  ),
  accreditation: Type.Optional(
    Repeatable(
      'Measurement agents with a metric accredited by any of these bodies (exact accrediting_body). Implies type=measurement.',
    ),
  ),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description:
        'Measurement agents with a metric_id containing this text (case-insensitive; % and _ refused). Implies type=measurement.',
    }),
  ),
  verified: Type.Optional(Type.Boolean({ description: 'true: only agents holding the verified badge.' })),
  verification_mode: Type.Optional(
    Type.Union([Type.Enum(['spec', 'live']), Type.Array(Type.Enum(['spec', 'live']), { maxItems: 2 })], {
      description:
        'Only agents whose badge covers every mode given (repeatable). The registry’s badge is earned by passing the protocol checks (spec); it observes no production traffic, so live matches none.',
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 500 })),
  cursor: Type.Optional(Cursor),
});

export const AgentList = Type.Object(
  {
    agents: Type.Array(Type.Ref('CatalogAgent')),
    count: Type.Integer({ description: 'Agents on this page.' }),
    cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass as `cursor` for the next page; null on the last.',
    }),
    has_more: Type.Boolean(),
    sources: Type.Object(
      { registered: Type.Integer(), discovered: Type.Integer() },
      {
        description:
          'Agents on this page by source, as the registry client reads it: all registered (enrolled), none discovered.',
      },
    ),
  },
  { description: 'The catalog of member-enrolled agents the caller may see, in URL order.' },
);

export const Removed = Type.Object({ agent_url: Type.String(), removed: Type.Literal(true) });

const Csv = (what: string) =>
  Type.String({ maxLength: 8000, description: `${what}: comma-separated values, any of which matches (at most 100).` });

export const SearchQueryString = Type.Object({
  channels: Type.Optional(Csv('Channels (enums/channels.json), e.g. display,ctv')),
  property_types: Type.Optional(Csv('Property types, e.g. website,ctv_app')),
  markets: Type.Optional(Csv('Country codes (ISO 3166-1 alpha-2), e.g. US,GB')),
  categories: Type.Optional(Csv('IAB content categories')),
  tags: Type.Optional(Csv('Property tags')),
  delivery_types: Type.Optional(Csv('guaranteed, non_guaranteed')),
  has_tmp: Type.Optional(
    Type.Boolean({ description: 'Only agents with (true) or without (false) Trusted Match Protocol support.' }),
  ),
  min_properties: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 1_000_000_000,
      description: 'At least this many properties in the agent’s inventory.',
    }),
  ),
  type: Type.Optional(
    Type.Enum([...agentTypes, 'unknown', 'si'], {
      description:
        'Only agents of this type. Inventory profiles are sales agents’ (and those of enrolled agents of another type that publishers authorize); unknown and si match none.',
    }),
  ),
  sort: Type.Optional(
    Type.Enum(['relevance'], { description: 'The order: by relevance_score (the only one, and the default).' }),
  ),
  cursor: Type.Optional(Cursor),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
});

const Strings = Type.Array(Type.String());

/** An inventory profile's fields: a search result carries them, and again grouped as `inventory_profile`. */
const profileFields = {
  channels: Strings,
  property_types: Strings,
  markets: Strings,
  categories: Strings,
  tags: Strings,
  delivery_types: Strings,
  format_ids: Type.Array(Type.Object({ agent_url: Type.String(), id: Type.String() }, { additionalProperties: true })),
  property_count: Type.Integer(),
  publisher_count: Type.Integer(),
  has_tmp: Type.Boolean(),
  category_taxonomy: Type.Union([Type.String(), Type.Null()]),
};

const exampleProfile = {
  channels: ['ctv', 'display'],
  property_types: ['ctv_app', 'website'],
  markets: ['GB', 'US'],
  categories: [],
  tags: ['news'],
  delivery_types: [],
  format_ids: [],
  property_count: 42,
  publisher_count: 3,
  has_tmp: true,
  category_taxonomy: null,
};

export const SearchResult = Type.Object(
  {
    agent_url: Type.String(),
    ...profileFields,
    relevance_score: Type.Number(),
    matched_filters: Strings,
    updated_at: Type.String({ format: 'date-time' }),
    url: Type.String({ description: 'agent_url again, as the protocol’s registry client reads it.' }),
    name: Type.String({
      description: 'The enrolled agent’s name; an agent only publishers’ adagents.json name goes by its URL.',
    }),
    type: Type.String({ description: 'Its catalog type; sales for an agent only publishers’ adagents.json name.' }),
    inventory_profile: Type.Object(profileFields, {
      description: 'The profile fields above again, grouped as the registry client reads them.',
    }),
    match: Type.Object(
      { score: Type.Number(), matched_filters: Strings },
      { description: 'relevance_score and matched_filters again, as the registry client reads them.' },
    ),
    compliance_summary: Type.Optional(Type.Ref('AgentComplianceSummary')),
  },
  { $id: 'AgentSearchResult', description: 'A sales agent’s inventory profile, ranked for the search.' },
);

export const SearchPageSchema = Type.Object(
  {
    results: Type.Array(Type.Ref('AgentSearchResult')),
    cursor: Type.String({ description: 'Pass as `cursor` for the next page of the same ranking (kept 10 minutes).' }),
    has_more: Type.Boolean(),
  },
  {
    description: 'Agents ranked by relevance_score, best first; equal scores in agent URL order.',
    examples: [
      {
        results: [
          {
            agent_url: 'https://sales.meridian-media.example/mcp',
            ...exampleProfile,
            relevance_score: 1.426,
            matched_filters: ['channels', 'markets'],
            updated_at: '2026-11-24T10:00:00.000Z',
            url: 'https://sales.meridian-media.example/mcp',
            name: 'Meridian Media sales agent',
            type: 'sales',
            inventory_profile: exampleProfile,
            match: { score: 1.426, matched_filters: ['channels', 'markets'] },
          },
        ],
        cursor: 'eyJzIjoiYWJjIiwibyI6IjEifQ',
        has_more: false,
      },
    ],
  },
);

export const operatorScopes = ['public', 'member', 'private', 'all'] as const;

export const OperatorQuery = Type.Object({
  domain: Domain,
  scope: Type.Optional(
    Type.Enum([...operatorScopes], {
      description:
        'Narrows, never widens, what your standing shows: public, only public agents; member, also members_only ones; private, only private ones; all (the default), everything you may see. ' +
        'An agent the domain’s brand.json lists, shown without its enrollment, counts as public.',
    }),
  ),
});

const TrustingPublisher = Type.Object({
  domain: Type.String(),
  status: Type.Enum(['active', 'stale', 'unknown'], {
    description:
      'The state of the publisher’s adagents.json (unknown: named by a manager’s file, never crawled itself).',
  }),
  property_count: Type.Integer({ description: 'Its properties the authorization covers.' }),
});

/** The sample the example shows, once: the catalog entry of an enrolled agent, then what the operator lookup adds. */
const operatorExample = {
  domain: 'meridian-media.example',
  agents: [
    {
      agent_url: 'https://sales.meridian-media.example/mcp',
      name: 'Meridian Media sales agent',
      type: 'sales',
      visibility: 'public',
      operator: { slug: 'meridian-media', name: 'Meridian Media' },
      enrolled_at: '2026-01-05T09:30:00.000Z',
      updated_at: '2026-01-05T09:30:00.000Z',
      sources: ['catalog', 'brand_json'],
      brand_json: { agent_id: 'meridian_sales', agent_type: 'sales' },
      publisher_count: 2,
      property_count: 5,
      publishers: [
        { domain: 'dailyharbor.example', status: 'active', property_count: 3 },
        { domain: 'metroweekly.example', status: 'active', property_count: 2 },
      ],
      url: 'https://sales.meridian-media.example/mcp',
      authorized_by: [
        { publisher_domain: 'dailyharbor.example', authorized_for: 'Display and video', source: 'adagents_json' },
        { publisher_domain: 'metroweekly.example', source: 'adagents_json' },
      ],
    },
  ],
  count: 1,
  publisher_count: 2,
  member: { slug: 'meridian-media', display_name: 'Meridian Media' },
};

export const OperatorAgent = Type.Object(
  {
    agent_url: Type.String({ description: 'Canonical, as the catalog and the authorization graph key agents.' }),
    url: Type.String({ description: 'agent_url again, as the protocol’s registry client reads it.' }),
    name: Type.Optional(Type.String()),
    type: Type.Union([AgentType, Type.Literal('unknown')], {
      description:
        'Its catalog type; for an agent shown without its enrollment, the type the domain’s brand.json gives it (unknown when that is none of the catalog’s).',
    }),
    description: Type.Optional(Type.String()),
    visibility: Type.Optional(Visibility),
    operator: Type.Optional(
      Type.Object(
        { slug: Type.String(), name: Type.String() },
        { description: 'The member organization that enrolled it.' },
      ),
    ),
    enrolled_at: Type.Optional(Type.String({ format: 'date-time' })),
    updated_at: Type.Optional(Type.String({ format: 'date-time' })),
    sources: Type.Array(Type.Enum(['catalog', 'brand_json']), {
      minItems: 1,
      description:
        'How the registry knows the domain operates it. catalog: enrolled on the domain or a host under it (or listed by its brand.json), and visible to you: the catalog fields above come with it. ' +
        'brand_json: the domain’s brand.json lists it.',
    }),
    brand_json: Type.Optional(
      Type.Object(
        { agent_id: Type.String(), agent_type: Type.String() },
        { description: 'The agent as the domain’s brand.json lists it.' },
      ),
    ),
    publisher_count: Type.Integer({ description: 'Publishers whose adagents.json authorizes it.' }),
    property_count: Type.Integer({ description: 'Their properties it is authorized for, summed.' }),
    publishers: Type.Array(TrustingPublisher, {
      maxItems: 1000,
      description: 'Those publishers, by domain (the first 1000).',
    }),
    authorized_by: Type.Array(
      Type.Object({
        publisher_domain: Type.String(),
        authorized_for: Type.Optional(
          Type.String({
            description: 'What the publisher’s file says the agent is authorized for (its first entry that says).',
          }),
        ),
        source: Type.Literal('adagents_json'),
      }),
      { maxItems: 1000, description: 'The same publishers, as the registry client reads them.' },
    ),
  },
  { description: 'An agent the domain operates, with the publishers that trust it.' },
);

export const OperatorAnswer = Type.Object(
  {
    domain: Type.String({ description: 'The domain asked about, normalized.' }),
    agents: Type.Array(OperatorAgent, { description: 'In URL order.' }),
    count: Type.Integer(),
    publisher_count: Type.Integer({ description: 'Distinct publishers trusting any of these agents.' }),
    member: Type.Optional(
      Type.Object(
        { slug: Type.String(), display_name: Type.String() },
        {
          description:
            'The member organization that enrolled the agents shown on the domain itself or a host under it (the first of them, in URL order); absent when none is shown.',
        },
      ),
    ),
  },
  {
    description: 'The agents operated by the domain that you may see, and the publishers that trust them.',
    examples: [operatorExample],
  },
);
