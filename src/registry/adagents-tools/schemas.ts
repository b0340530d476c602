import { Type, type Static } from 'typebox';
import { Domain, PropertyId, PropertyTag } from '../../protocol/wire/common.ts';
import { MAX_FINDINGS } from '../documents/adagents-validation/validate.ts';

/**
 * Wire schemas of the adagents.json tools (spec section 4: `POST /api/adagents/validate`,
 * `POST /api/adagents/create`, `GET /api/manifest-refs/lookup`, `GET /api/public/validate-publisher`),
 * whose bodies the spec does not show. Findings name their place as a JSON Pointer.
 */

const Timestamp = Type.String({ format: 'date-time' });
const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T, description: string) =>
  Type.Union([t, Type.Null()], { description });
const FreeObject = (description: string, examples?: unknown[], maxProperties?: number) =>
  Type.Object(
    {},
    {
      additionalProperties: true,
      description,
      ...(examples ? { examples } : {}),
      ...(maxProperties ? { maxProperties } : {}),
    },
  );

const exampleDomain = 'dailyplanet.example';
const exampleUrl = `https://${exampleDomain}/.well-known/adagents.json`;
const exampleAgent = 'https://sales.meridian.example/mcp';

export const Finding = Type.Object(
  {
    code: Type.String({
      description: 'Stable code (listed in the operation’s description); codes are only ever added.',
    }),
    message: Type.String({ description: 'What is wrong and how to fix it.' }),
    path: Type.String({ description: 'Where, as a JSON Pointer (RFC 6901) into the file; "" is the whole file.' }),
  },
  {
    examples: [
      {
        code: 'unknown_property_tag',
        message: 'no property in this file has the tag "sports", so it selects nothing',
        path: '/authorized_agents/1/property_tags/0',
      },
    ],
  },
);

const Omitted = Type.Object(
  { errors: Type.Integer({ minimum: 0 }), warnings: Type.Integer({ minimum: 0 }) },
  { description: `How many findings of each kind were left out: each list keeps the first ${MAX_FINDINGS}.` },
);

const exampleDocument = {
  $schema: '/schemas/3.0.6/adagents.json',
  contact: { name: 'Daily Planet Ad Operations', email: 'adops@dailyplanet.example' },
  properties: [
    {
      property_id: 'planet_web',
      property_type: 'website',
      name: 'Daily Planet',
      identifiers: [{ type: 'domain', value: exampleDomain }],
      tags: ['news'],
    },
  ],
  authorized_agents: [
    {
      url: exampleAgent,
      authorized_for: 'Display and video on Daily Planet',
      authorization_type: 'property_tags',
      property_tags: ['news'],
      delegation_type: 'direct',
    },
  ],
  last_updated: '2026-03-01T12:00:00.000Z',
};

export const ValidateBody = Type.Object(
  {
    domain: Type.Optional(Domain),
    document: Type.Optional(
      FreeObject('An adagents.json to check as given (nothing is fetched but, with check_agents, its agents).'),
    ),
    check_agents: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'Also ask each agent URL (at most 20, 3 s each) whether it answers; one that does not is an `agent_unreachable` warning.',
      }),
    ),
  },
  {
    description: 'Exactly one of `domain` and `document`.',
    // No example holds a `properties` list: @fastify/swagger reads any such key in a body schema's examples as a schema's properties and mangles it.
    examples: [
      { domain: exampleDomain, check_agents: true },
      { document: { authoritative_location: 'https://network.example/adagents/dailyplanet.json' } },
    ],
  },
);
export type ValidateBody = Static<typeof ValidateBody>;

const AgentReach = Type.Object(
  {
    url: Type.String(),
    reachable: Type.Boolean({ description: 'Any HTTP answer counts (an MCP endpoint may answer a GET with 405).' }),
    status: nullable(Type.Integer(), 'The HTTP status it answered.'),
    latency_ms: nullable(Type.Integer(), 'Time to its answer.'),
    problem: nullable(Type.String(), 'Why it did not answer.'),
  },
  { examples: [{ url: exampleAgent, reachable: true, status: 405, latency_ms: 38, problem: null }] },
);

const Source = Type.Object(
  {
    type: Type.Union([Type.Literal('domain'), Type.Literal('document')]),
    domain: nullable(Type.String(), 'The normalized domain, when one was fetched.'),
    url: nullable(Type.String(), 'Where the file judged was read (or the address that failed).'),
    chain: Type.Array(Type.String(), {
      description: 'Every address read, in order: the well-known address, then each authoritative_location followed.',
    }),
  },
  { examples: [{ type: 'domain', domain: exampleDomain, url: exampleUrl, chain: [exampleUrl] }] },
);

const Judged = Type.Object(
  {
    valid: Type.Boolean({ description: 'No errors (warnings allowed).' }),
    errors: Type.Array(Finding),
    warnings: Type.Array(Finding),
    omitted: Type.Optional(Omitted),
  },
  { description: 'The findings: errors make the file unusable as published, warnings are worth fixing.' },
);

const exampleFindings = {
  valid: true,
  errors: [],
  warnings: [
    {
      code: 'last_updated_missing',
      message: 'is missing; readers cannot tell how current the file is',
      path: '/last_updated',
    },
  ],
};
const exampleReach = { url: exampleAgent, reachable: true, status: 405, latency_ms: 38, problem: null };

export const ValidationReport = Type.Object(
  {
    ...Judged.properties,
    source: Source,
    agents: Type.Optional(
      Type.Array(AgentReach, { description: 'With check_agents: how each distinct agent URL answered.' }),
    ),
    // The protocol's registry client reads this envelope (validateAdagents).
    success: Type.Literal(true, { description: 'The check ran (a file with errors is still a successful check).' }),
    data: Type.Object(
      {
        domain: nullable(Type.String(), 'The normalized domain; null for an inline document.'),
        found: Type.Boolean({
          description:
            'A file was read: the domain answered its adagents.json (or a pointer target) with content, valid or not; always true for an inline document.',
        }),
        validation: Type.Intersect(
          [
            Judged,
            Type.Object({
              url: nullable(Type.String(), 'Where the file judged was read.'),
              chain: Type.Array(Type.String()),
            }),
          ],
          {
            description: 'The same findings, with where the file was read.',
          },
        ),
        agent_cards: Type.Optional(
          Type.Array(AgentReach, { description: 'With check_agents: how each agent answered (as `agents`).' }),
        ),
      },
      { description: 'The report as the protocol’s registry client reads it.' },
    ),
    timestamp: Timestamp,
  },
  {
    description: 'An adagents.json judged.',
    examples: [
      {
        ...exampleFindings,
        source: { type: 'domain', domain: exampleDomain, url: exampleUrl, chain: [exampleUrl] },
        agents: [exampleReach],
        success: true,
        data: {
          domain: exampleDomain,
          found: true,
          validation: { ...exampleFindings, url: exampleUrl, chain: [exampleUrl] },
          agent_cards: [exampleReach],
        },
        timestamp: '2026-03-01T12:00:00.000Z',
      },
    ],
  },
);

const AgentInput = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'The agent’s URL (https).' }),
    authorized_for: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description: 'What the agent sells, in words; without it the registry writes one from the agent’s selector.',
      }),
    ),
    authorization_type: Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          'As adagents.json: property_ids, property_tags, inline_properties, publisher_properties, signal_ids, signal_tags. Without it, and without a selector, the agent is authorized for every property by id.',
      }),
    ),
    property_ids: Type.Optional(Type.Array(PropertyId, { minItems: 1 })),
    property_tags: Type.Optional(Type.Array(PropertyTag, { minItems: 1 })),
    signing_keys: Type.Optional(
      Type.Array(FreeObject('A public JWK (kid, kty and its members).'), { minItems: 1, maxItems: 50 }),
    ),
  },
  {
    additionalProperties: true,
    description:
      'An authorized_agents[] entry; other fields of adagents.json (delegation_type, countries, effective_from, ...) pass through.',
  },
);

export const CreateBody = Type.Object(
  {
    publisher_domain: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 300,
        description:
          'The publisher (a domain; a protocol prefix is stripped); needed with `properties_from: "registry"`.',
      }),
    ),
    properties: Type.Optional(
      Type.Array(FreeObject('A property as core/property.json.'), { minItems: 1, maxItems: 10_000 }),
    ),
    properties_from: Type.Optional(
      Type.Literal('registry', {
        description:
          'Take the properties the registry holds for publisher_domain (from its last crawled adagents.json) instead of `properties`.',
      }),
    ),
    authorized_agents: Type.Array(AgentInput, { minItems: 1, maxItems: 1000 }),
    contact: Type.Optional(
      FreeObject('Who manages the file: name (required), email, domain, seller_id, tag_id, privacy_policy_url.'),
    ),
    tags: Type.Optional(FreeObject('Each property tag’s name and description.', undefined, 1000)),
    include_schema: Type.Optional(
      Type.Boolean({ default: true, description: 'Write `$schema` (the published schema’s id) into the file.' }),
    ),
    include_timestamp: Type.Optional(
      Type.Boolean({ default: true, description: 'Write `last_updated` (now) into the file.' }),
    ),
    placements: Type.Optional(
      Type.Array(FreeObject('A placement as core/placement-definition.json.'), { minItems: 1, maxItems: 1000 }),
    ),
    placement_tags: Type.Optional(FreeObject('Each placement tag’s name and description.', undefined, 1000)),
    formats: Type.Optional(
      Type.Array(
        FreeObject(
          'A format the publisher’s inventory takes (a field of later adagents.json versions; passed through).',
        ),
        { maxItems: 1000 },
      ),
    ),
    catalog_etag: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 256,
        description: 'The catalog’s content identity (a field of later adagents.json versions; passed through).',
      }),
    ),
  },
  {
    description:
      'At most one of `properties` and `properties_from`; without either the file lists no properties, and each agent needs a selector that does not name them (publisher_properties, signal_ids, ...). ' +
      'The protocol’s registry client sends `authorized_agents`, `properties`, `include_schema`, `include_timestamp`, `placements`, `placement_tags`, `formats` and `catalog_etag`.',
    examples: [
      {
        publisher_domain: exampleDomain,
        contact: { name: 'Daily Planet Ad Operations', email: 'adops@dailyplanet.example' },
        properties_from: 'registry',
        authorized_agents: [
          {
            url: exampleAgent,
            authorized_for: 'Display and video on Daily Planet',
            property_tags: ['news'],
            delegation_type: 'direct',
          },
        ],
      },
    ],
  },
);
export type CreateBody = Static<typeof CreateBody>;

export const CreateQuery = Type.Object({
  download: Type.Optional(
    Type.Boolean({
      default: false,
      description:
        'Answer the file itself as an attachment (`Content-Disposition: attachment; filename="adagents.json"`), ready to publish at /.well-known/adagents.json.',
    }),
  ),
});

export const Created = Type.Object(
  {
    document: FreeObject('The adagents.json, valid against schemas/3.0.6/adagents.json.'),
    warnings: Type.Array(Finding, {
      description: 'What the file allows but a publisher may want to fix (paths into `document`).',
    }),
    // The protocol's registry client reads this envelope (createAdagents).
    success: Type.Literal(true),
    data: Type.Object(
      {
        success: Type.Literal(true, {
          description: 'The file was made (input that cannot make a valid file is a 400).',
        }),
        adagents_json: FreeObject('The adagents.json (as `document`).'),
        validation: Type.Intersect(
          [Judged, Type.Object({ domain: nullable(Type.String(), 'publisher_domain, when given.') })],
          { description: 'The validator’s findings on the file: no errors, and its warnings.' },
        ),
      },
      { description: 'The file as the protocol’s registry client reads it.' },
    ),
    timestamp: Timestamp,
  },
  {
    examples: [
      {
        document: exampleDocument,
        warnings: [],
        success: true,
        data: {
          success: true,
          adagents_json: exampleDocument,
          validation: { valid: true, errors: [], warnings: [], domain: exampleDomain },
        },
        timestamp: '2026-03-01T12:00:00.000Z',
      },
    ],
  },
);

export const DomainQuery = Type.Object({ domain: Domain });

/** The manifest kinds a lookup may ask for, in the spellings people use. */
export const manifestTypes = {
  adagents: 'adagents_json',
  'adagents.json': 'adagents_json',
  adagents_json: 'adagents_json',
  brand: 'brand_json',
  'brand.json': 'brand_json',
  brand_json: 'brand_json',
} as const;

export const ManifestRefsQuery = Type.Object({
  domain: Domain,
  type: Type.Optional(
    Type.Union(
      Object.keys(manifestTypes).map((t) => Type.Literal(t)),
      {
        description:
          'Which manifest `reference` describes: adagents.json (`adagents`, `adagents.json`, `adagents_json`) or brand.json (`brand`, `brand.json`, `brand_json`); without it, the first of the two the registry has found.',
        examples: ['adagents.json'],
      },
    ),
  ),
});

const FetchStatus = Type.Union(
  ['found', 'absent', 'invalid', 'transient', 'not_fetched'].map((s) => Type.Literal(s)),
  {
    description:
      'How the crawler’s last fetch went: found, absent (404/410), invalid (not JSON, schema, a loop, too many hops, too large, a private address), transient (time-out, 5xx, 429); not_fetched when no crawl recorded a fetch (the document may still be held: seeded, or fetched for a brand lookup).',
  },
);

const ManifestRef = Type.Object({
  well_known_url: Type.String({ description: 'Where the domain publishes the document.' }),
  status: FetchStatus,
  reason: nullable(Type.String(), 'Why the last fetch did not find it.'),
  url: nullable(
    Type.String(),
    'Where the document that counts was read (after hops), or where the last fetch stopped.',
  ),
  hops: Type.Array(Type.String(), {
    description:
      'The pointers followed from the well-known address: authoritative_location targets (adagents.json), house pointers (brand.json).',
  }),
  fetched_at: nullable(Timestamp, 'When the crawler last fetched it.'),
  stored_at: nullable(Timestamp, 'When the registry last stored a good copy.'),
});

export const ManifestRefs = Type.Object(
  {
    domain: Type.String(),
    adagents_json: ManifestRef,
    brand_json: Type.Intersect([
      ManifestRef,
      Type.Object({
        house_domain: nullable(Type.String(), 'The house the registry’s brand record names (from a brand.json).'),
      }),
    ]),
    publisher: nullable(
      Type.Object({
        status: Type.Union([Type.Literal('active'), Type.Literal('stale')]),
        stale_reason: nullable(Type.String(), 'Why, while stale.'),
        manager_domain: nullable(Type.String(), 'Who serves the file for a managed network.'),
      }),
      'The registry’s publisher record, when its adagents.json was ever projected.',
    ),
    last_crawled_at: nullable(Timestamp, 'The crawler’s last visit.'),
    next_crawl_at: nullable(Timestamp, 'When the domain is due again.'),
    // The protocol's registry client reads these (lookupManifestRef).
    success: Type.Boolean({ description: 'Whether `reference` is there (as `found`).' }),
    found: Type.Boolean({
      description: 'The registry has found the manifest asked for (`type`): read (valid or not), or a good copy held.',
    }),
    reference: Type.Optional(
      Type.Object(
        {
          manifest_type: Type.Union([Type.Literal('adagents_json'), Type.Literal('brand_json')], {
            description: 'Which manifest this is.',
          }),
          reference_type: Type.Literal('url', {
            description:
              'The manifest is a file at `manifest_url` (the registry does not record manifests served by agents).',
          }),
          manifest_url: nullable(Type.String(), 'Where the manifest that counts was read, after pointers.'),
          agent_url: Type.Null({ description: 'Always null: see reference_type.' }),
          agent_id: Type.Null({ description: 'Always null: see reference_type.' }),
          verification_status: Type.Union(
            ['pending', 'valid', 'invalid', 'unreachable'].map((s) => Type.Literal(s)),
            {
              description:
                'The last fetch: `valid` (found), `invalid`, `unreachable` (a transient failure, or the file is gone while a copy is held), `pending` (held, never fetched by a crawl).',
            },
          ),
        },
        { description: 'With `found`: the manifest asked for, as the protocol’s registry client reads it.' },
      ),
    ),
  },
  {
    examples: [
      {
        success: true,
        found: true,
        reference: {
          manifest_type: 'adagents_json',
          reference_type: 'url',
          manifest_url: 'https://network.example/adagents/dailyplanet.json',
          agent_url: null,
          agent_id: null,
          verification_status: 'valid',
        },
        domain: exampleDomain,
        adagents_json: {
          well_known_url: exampleUrl,
          status: 'found',
          reason: null,
          url: 'https://network.example/adagents/dailyplanet.json',
          hops: ['https://network.example/adagents/dailyplanet.json'],
          fetched_at: '2026-03-01T12:00:00.000Z',
          stored_at: '2026-03-01T12:00:00.000Z',
        },
        brand_json: {
          well_known_url: `https://${exampleDomain}/.well-known/brand.json`,
          status: 'absent',
          reason: 'https://dailyplanet.example/.well-known/brand.json answered HTTP 404',
          url: `https://${exampleDomain}/.well-known/brand.json`,
          hops: [],
          fetched_at: '2026-03-01T12:00:00.000Z',
          stored_at: null,
          house_domain: null,
        },
        publisher: { status: 'active', stale_reason: null, manager_domain: 'network.example' },
        last_crawled_at: '2026-03-01T12:00:00.000Z',
        next_crawl_at: '2026-03-02T11:12:00.000Z',
      },
    ],
  },
);

const Relationship = Type.Object(
  {
    operator_domain: Type.String(),
    brand_id: Type.String(),
    relationship: Type.String({
      description: 'As the operator’s brand.json declares it (owned, direct, delegated, ...).',
    }),
    agents: Type.Array(Type.String(), { description: 'The agents the operator’s brand.json lists (canonical URLs).' }),
    property_ids: Type.Array(Type.String(), {
      description: 'The publisher’s properties it declares (property_id, else the registry id).',
    }),
  },
  {
    examples: [
      {
        operator_domain: 'meridian.example',
        brand_id: 'dailyplanet',
        relationship: 'delegated',
        agents: [exampleAgent],
        property_ids: ['planet_web'],
      },
    ],
  },
);

export const PublisherReport = Type.Object(
  {
    domain: Type.String(),
    checked_at: Timestamp,
    // The protocol's registry client reads these (validatePublisher): the live file, at the top.
    valid: Type.Boolean({ description: 'The live file has no errors (as `adagents.valid`).' }),
    url: Type.String({ description: 'Where the live file was read (as `adagents.url`).' }),
    discovery_method: Type.Union([Type.Literal('direct'), Type.Literal('authoritative_location')], {
      description: '`direct`: read at the well-known address; `authoritative_location`: a pointer there was followed.',
    }),
    agent_count: Type.Integer({
      minimum: 0,
      description: 'Distinct agent URLs the live file authorizes (`registry.agent_count` is the registry’s copy).',
    }),
    property_count: Type.Integer({
      minimum: 0,
      description: 'Properties the live file declares (`registry.property_count` is the registry’s copy).',
    }),
    property_type_counts: Type.Object(
      {},
      {
        additionalProperties: Type.Integer({ minimum: 0 }),
        description: 'The live file’s properties by property_type.',
      },
    ),
    tag_count: Type.Integer({
      minimum: 0,
      description: 'Distinct property tags of the live file: those its properties carry and those its `tags` describe.',
    }),
    errors: Type.Array(Type.String(), {
      description: 'The live file’s errors as text, `<path>: <message>` (`adagents.errors` has them with codes).',
    }),
    warnings: Type.Array(Type.String(), { description: 'Its warnings as text, likewise.' }),
    adagents: Type.Intersect(
      [
        Type.Object({
          valid: Type.Boolean(),
          errors: Type.Array(Finding),
          warnings: Type.Array(Finding),
          omitted: Type.Optional(Omitted),
        }),
        Type.Object({ url: Type.String(), chain: Type.Array(Type.String()) }),
      ],
      { description: 'The adagents.json fetched now and judged as POST /api/adagents/validate judges it.' },
    ),
    brand_relationships: Type.Array(Relationship, {
      description: 'Operators whose brand.json declares the publisher’s properties, as the registry last crawled them.',
    }),
    registry: Type.Object(
      {
        known: Type.Boolean({ description: 'Whether the registry holds an adagents.json for the domain.' }),
        status: nullable(
          Type.Union([Type.Literal('active'), Type.Literal('stale')]),
          'The publisher’s file as last crawled.',
        ),
        stale_reason: nullable(Type.String(), 'Why, while stale.'),
        document_url: nullable(Type.String(), 'Where the registry last read the file.'),
        property_count: Type.Integer(),
        stale_property_count: Type.Integer(),
        agent_count: Type.Integer({ description: 'Distinct agents the registry’s copy authorizes.' }),
        authorization_count: Type.Integer(),
        last_crawled_at: nullable(Timestamp, 'The crawler’s last visit.'),
        last_outcome: nullable(Type.String(), 'What the last crawl of the adagents.json came to.'),
      },
      { description: 'What the registry holds for the domain.' },
    ),
  },
  {
    examples: [
      {
        domain: exampleDomain,
        checked_at: '2026-03-01T12:00:00.000Z',
        valid: true,
        url: exampleUrl,
        discovery_method: 'direct',
        agent_count: 1,
        property_count: 1,
        property_type_counts: { website: 1 },
        tag_count: 1,
        errors: [],
        warnings: [],
        adagents: { valid: true, errors: [], warnings: [], url: exampleUrl, chain: [exampleUrl] },
        brand_relationships: [
          {
            operator_domain: 'meridian.example',
            brand_id: 'dailyplanet',
            relationship: 'delegated',
            agents: [exampleAgent],
            property_ids: ['planet_web'],
          },
        ],
        registry: {
          known: true,
          status: 'active',
          stale_reason: null,
          document_url: exampleUrl,
          property_count: 1,
          stale_property_count: 0,
          agent_count: 1,
          authorization_count: 1,
          last_crawled_at: '2026-03-01T11:00:00.000Z',
          last_outcome: 'found',
        },
      },
    ],
  },
);
