import { Type, type Static } from 'typebox';
import { Cursor, Domain } from '../../protocol/wire/common.ts';

/**
 * Wire schemas of the publisher views (spec sections 1 and 4: `GET /api/registry/publisher`,
 * `/publishers`). Fields beyond `properties[]` and `authorized_agents[]` are "not shown" in the
 * spec; they follow adagents.json 3.0.6 and the lookups' shapes (`LookupProperty`,
 * `LookupAuthorization`, registered by the lookups plugin).
 */

const Timestamp = Type.String({ format: 'date-time' });
const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T, options: { description?: string } = {}) =>
  Type.Union([t, Type.Null()], options);

const Status = Type.Union([Type.Literal('active'), Type.Literal('stale')], {
  description:
    'stale: the last re-crawl found no valid adagents.json; its properties answer checks `unknown` until one passes.',
});

const Counts = {
  property_count: Type.Integer({ description: 'Properties the registry holds under the domain, active and stale.' }),
  stale_property_count: Type.Integer({
    description: 'Of those, stale (the file went stale, or a later file dropped them).',
  }),
  collection_count: Type.Integer({ description: 'Collections the file declares (removed ones not counted).' }),
  agent_count: Type.Integer({
    description: 'Distinct agents (canonical URL) the domain’s own adagents.json authorizes.',
  }),
  authorization_count: Type.Integer({
    description: 'authorized_agents[] entries of the file (an agent may have several).',
  }),
};

const AdagentsState = Type.Object(
  {
    status: Status,
    stale_reason: nullable(Type.String(), { description: 'Why the last re-crawl failed, while stale.' }),
    document_url: nullable(Type.String(), {
      description: 'Where the file was read, after authoritative_location hops.',
    }),
    manager_domain: nullable(Type.String(), {
      description: 'The domain serving the file when it is not the publisher’s own (a managed network).',
    }),
    discovered_at: nullable(Timestamp, { description: 'When the registry first projected the file.' }),
  },
  {
    description: 'The publisher’s adagents.json as the registry last projected it.',
    examples: [
      {
        status: 'active',
        stale_reason: null,
        document_url: 'https://dailyplanet.example/.well-known/adagents.json',
        manager_domain: null,
        discovered_at: '2026-01-12T09:30:00.000Z',
      },
    ],
  },
);

const CoveredProperty = Type.Object(
  {
    property_rid: Type.String({ format: 'uuid' }),
    publisher_domain: Type.String({
      description: 'The publisher declaring it: another one’s for a publisher_properties entry.',
    }),
    property_id: nullable(Type.String()),
    name: Type.String(),
    status: Status,
  },
  {
    examples: [
      {
        property_rid: '0190a5b2-7c1e-7000-8000-3f2a9c1d4e5b',
        publisher_domain: 'dailyplanet.example',
        property_id: 'site',
        name: 'Daily Planet',
        status: 'active',
      },
    ],
  },
);

const PublisherSelector = Type.Object(
  {
    publisher_domain: Type.String(),
    selection_type: Type.Union([Type.Literal('all'), Type.Literal('by_id'), Type.Literal('by_tag')]),
    property_ids: Type.Optional(Type.Array(Type.String())),
    property_tags: Type.Optional(Type.Array(Type.String())),
  },
  {
    description: 'core/publisher-property-selector.json',
    examples: [{ publisher_domain: 'dailyplanet.example', selection_type: 'by_tag', property_tags: ['news'] }],
  },
);

/** One authorized_agents[] entry: the lookups' authorization, what it selects as the file declares it, and what that covers. */
const AuthorizedAgent = Type.Intersect([
  Type.Ref('LookupAuthorization'),
  Type.Object({
    property_ids: Type.Optional(
      Type.Array(Type.String(), { description: 'authorization_type property_ids: as declared.' }),
    ),
    property_tags: Type.Optional(
      Type.Array(Type.String(), { description: 'authorization_type property_tags: as declared.' }),
    ),
    property_rids: Type.Optional(
      Type.Array(Type.String(), {
        description:
          'authorization_type inline_properties: the registry ids of the inline properties (listed in properties[]).',
      }),
    ),
    publisher_properties: Type.Optional(
      Type.Array(PublisherSelector, {
        description: 'authorization_type publisher_properties: the selectors, by publisher.',
      }),
    ),
    signal_ids: Type.Optional(Type.Array(Type.String())),
    signal_tags: Type.Optional(Type.Array(Type.String())),
    collections: Type.Optional(
      Type.Array(Type.Unknown(), {
        description: 'Collection constraints as declared (core/collection-selector.json).',
      }),
    ),
    placement_ids: Type.Optional(Type.Array(Type.String())),
    placement_tags: Type.Optional(Type.Array(Type.String())),
    effective_from: Type.Optional(Type.String()),
    effective_until: Type.Optional(Type.String()),
    properties: Type.Array(CoveredProperty, {
      description: 'The properties the entry covers now, any publisher’s (signals cover none).',
    }),
    url: Type.String({
      description: 'The agent’s canonical URL (agent_url_canonical), as the protocol’s registry client reads it.',
    }),
    source: Type.Literal('adagents_json', {
      description: 'Attested by the publisher’s adagents.json, as the registry read it.',
    }),
    properties_authorized: Type.Integer({ description: 'This publisher’s properties the entry covers.' }),
    properties_total: Type.Integer({ description: 'This publisher’s properties (counts.property_count).' }),
  }),
]);

export const PublisherQuery = Type.Object({ domain: Domain });

export const Publisher = Type.Object(
  {
    domain: Type.String({ description: 'The publisher domain, normalized.' }),
    adagents: AdagentsState,
    counts: Type.Object(Counts, {
      examples: [
        { property_count: 3, stale_property_count: 0, collection_count: 1, agent_count: 3, authorization_count: 3 },
      ],
    }),
    member: Type.Null({
      description:
        'The member organization owning the domain, as the registry client reads it: null, since the publisher views answer from the index, which links no publisher to a member.',
    }),
    adagents_valid: Type.Boolean({ description: 'Whether its adagents.json is valid now (false while stale).' }),
    manager_domain: nullable(Type.String(), {
      description: 'adagents.manager_domain again, as the registry client reads it.',
    }),
    hosting: Type.Object(
      {
        mode: Type.Union([Type.Literal('self'), Type.Literal('self_redirected'), Type.Literal('self_invalid')], {
          description:
            'self: served on the publisher’s own origin; self_redirected: its authoritative_location leads to another host; self_invalid: its last re-crawl failed.',
        }),
        expected_url: Type.String({
          description: 'Where the file should live: the publisher’s own /.well-known/adagents.json.',
        }),
        resolved_url: nullable(Type.String(), { description: 'Where it was read (adagents.document_url).' }),
      },
      {
        description: 'Where the publisher’s adagents.json lives, as the registry client reads it.',
        examples: [
          {
            mode: 'self',
            expected_url: 'https://dailyplanet.example/.well-known/adagents.json',
            resolved_url: 'https://dailyplanet.example/.well-known/adagents.json',
          },
        ],
      },
    ),
    properties: Type.Array(
      Type.Intersect([
        Type.Ref('LookupProperty'),
        Type.Object({
          id: Type.Optional(
            Type.String({
              description: 'property_id again, as the registry client reads it (absent when the file gives none).',
            }),
          ),
          type: Type.String({ description: 'property_type again, as the registry client reads it.' }),
          source: Type.Literal('adagents_json'),
        }),
      ]),
      {
        description:
          'The inventory the domain publishes: every property its adagents.json declares (inline ones included), by property_id.',
      },
    ),
    collections: Type.Array(
      Type.Object({
        collection_rid: Type.String({ format: 'uuid' }),
        collection_id: Type.String(),
        name: Type.String(),
        kind: nullable(Type.String()),
      }),
      { description: 'Collections the file declares (core/collection.json), by collection_id.' },
    ),
    authorized_agents: Type.Array(AuthorizedAgent, {
      description: 'The entries of the domain’s own adagents.json, by agent (canonical URL).',
    }),
  },
  {
    // No example of the whole answer: @fastify/swagger converts any array under a key named
    // `properties` in an example into an object (it takes it for a schema's), so the parts carry theirs.
    description: 'A publisher domain as its adagents.json declares it.',
  },
);

export const maxPublisherQuery = 64;

export const PublishersQuery = Type.Object({
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: maxPublisherQuery,
      description:
        'Part of the domain, case-insensitive (a pasted URL is cut to its host; Unicode matches internationalized domains). Domains starting with it come first, then those with a label starting with it, then the rest containing it.',
      examples: ['planet'],
    }),
  ),
  status: Type.Optional(
    Type.Enum(['active', 'stale'], { description: 'Only publishers whose adagents.json is in this state.' }),
  ),
  cursor: Type.Optional(Cursor),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
});
export type PublishersQuery = Static<typeof PublishersQuery>;

export const PublisherList = Type.Object(
  {
    publishers: Type.Array(
      Type.Object({
        domain: Type.String(),
        status: Status,
        stale_reason: nullable(Type.String()),
        manager_domain: nullable(Type.String()),
        ...Counts,
        source: Type.Literal('discovered', {
          description:
            'As the protocol’s registry client reads it: the registry found the publisher by crawling its adagents.json.',
        }),
        has_valid_adagents: Type.Boolean({
          description: 'Whether its adagents.json is valid now (false while stale).',
        }),
        discovered_at: Type.Optional(Timestamp),
      }),
    ),
    count: Type.Integer({ description: 'Publishers on this page.' }),
    total: Type.Integer({ description: 'Publishers matching the query now, in all pages.' }),
    cursor: nullable(Type.String(), {
      description:
        'Pass it back for the next page; null on the last page. Pages never skip or repeat a publisher present throughout, whatever is added or removed meanwhile.',
    }),
    has_more: Type.Boolean(),
    sources: Type.Object(
      { registered: Type.Integer(), discovered: Type.Integer() },
      { description: 'Publishers on this page by source, as the registry client reads it.' },
    ),
  },
  {
    examples: [
      {
        publishers: [
          {
            domain: 'dailyplanet.example',
            status: 'active',
            stale_reason: null,
            manager_domain: null,
            property_count: 3,
            stale_property_count: 0,
            collection_count: 0,
            agent_count: 3,
            authorization_count: 3,
            source: 'discovered',
            has_valid_adagents: true,
            discovered_at: '2026-01-12T09:30:00.000Z',
          },
        ],
        count: 1,
        total: 1,
        cursor: null,
        has_more: false,
        sources: { registered: 0, discovered: 1 },
      },
    ],
  },
);
