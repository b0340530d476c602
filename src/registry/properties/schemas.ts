import { Type, type Static } from 'typebox';
import { Domain } from '../../protocol/wire/common.ts';
import { bulkBody, bulkResults, registryPage, registryQuery, saveResult } from '../entries/index.ts';

const Source = Type.Union([Type.Literal('adagents_json'), Type.Literal('community')]);

const AuthorizedAgent = Type.Object(
  {
    url: Type.String({ format: 'uri', maxLength: 2048 }),
    authorized_for: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

const PropertyType = (description: string) => Type.String({ minLength: 1, maxLength: 50, description });

const Identifier = Type.Object(
  {
    type: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[a-z0-9_]+$',
      description: 'Identifier type (enums/identifier-types.json), e.g. domain, ios_bundle.',
    }),
    value: Type.String({ minLength: 1, maxLength: 500 }),
  },
  { additionalProperties: false },
);

const identity = {
  name: Type.String({ minLength: 1, maxLength: 300 }),
  identifiers: Type.Optional(
    Type.Array(Identifier, {
      maxItems: 50,
      description: 'Known identifiers of the property (domain, bundle id, app-store id).',
    }),
  ),
  tags: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      maxItems: 50,
      description: 'Tags for by_tag property selection.',
    }),
  ),
};

/** A property as an entry declares it. */
const InventoryItem = Type.Object({
  type: PropertyType('Property type, e.g. website, mobile_app, ctv_app.'),
  ...identity,
});

/**
 * A property as a save declares it: `type`, as the spec shows, or `property_type`, as adagents.json
 * and the protocol's registry client name it (it wins when both are sent).
 */
const SavedItem = Type.Object(
  {
    type: Type.Optional(PropertyType('Property type, e.g. website, mobile_app, ctv_app; or send property_type.')),
    property_type: Type.Optional(
      PropertyType('The property type under the name adagents.json gives it; wins over type.'),
    ),
    ...identity,
  },
  { additionalProperties: false, anyOf: [{ required: ['type'] }, { required: ['property_type'] }] },
);
export type SavedProperty = Static<typeof SavedItem>;

const Contact = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 255 })),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 255 })),
  },
  { additionalProperties: false },
);

export const PropertyEntry = Type.Object(
  {
    id: Type.String({ description: 'The property_rid of the entry.' }),
    publisher_domain: Type.String(),
    source: Source,
    status: Type.Union([Type.Literal('active'), Type.Literal('stale')]),
    authorized_agents: Type.Array(AuthorizedAgent),
    properties: Type.Array(InventoryItem),
    contact: Type.Optional(Contact),
    revision_number: Type.Integer({ minimum: 0 }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'PropertyEntry', description: 'What the registry knows about a publisher domain.' },
);

const Verified = Type.Boolean({
  description:
    'True when the entry is the publisher’s own adagents.json as last crawled (source `adagents_json`, status `active`).',
});

export const PropertyResolution = Type.Object(
  { ...PropertyEntry.properties, verified: Verified },
  {
    $id: 'PropertyResolution',
    description: 'What the registry knows about a publisher domain, and whether the publisher itself says so.',
  },
);

export const PropertyRegistryItem = Type.Object(
  {
    ...PropertyResolution.properties,
    domain: Type.String({ description: 'The publisher domain (as `publisher_domain`).' }),
    property_count: Type.Integer({ minimum: 0, description: 'Properties the entry declares.' }),
    agent_count: Type.Integer({ minimum: 0, description: 'Agents the entry authorizes.' }),
  },
  { $id: 'PropertyRegistryItem', description: 'A property entry as listed by the registry.' },
);

export { DomainQuery } from '../entries/index.ts';

export const ResolveResponse = { $ref: 'PropertyResolution#' };

export const BulkBody = bulkBody('At most 100 publisher domains.');

export const BulkResults = bulkResults('PropertyResolution');

export const SaveBody = Type.Object(
  {
    publisher_domain: Domain,
    authorized_agents: Type.Array(AuthorizedAgent, { maxItems: 500 }),
    properties: Type.Optional(Type.Array(SavedItem, { maxItems: 1000 })),
    contact: Type.Optional(Contact),
  },
  { additionalProperties: false },
);

export const SaveResult = saveResult({}, 'Only when an existing entry was updated.', 'The saved property entry.');

export const RegistryQuery = registryQuery(
  Source,
  'Case-insensitive substring of the publisher domain or a property name.',
);

export const RegistryPage = registryPage({
  listKey: 'properties',
  entry: 'PropertyRegistryItem',
  counts: Type.Object(
    { adagents_json: Type.Integer(), community: Type.Integer() },
    { description: 'Matching entries by source (ignoring the source filter).' },
  ),
  stats: Type.Object(
    {
      total: Type.Integer({ description: 'Entries matching `q`/`search` (ignoring the source filter).' }),
      adagents_json: Type.Integer(),
      community: Type.Integer(),
      stale: Type.Integer({ description: 'Entries whose publisher’s adagents.json is gone or invalid.' }),
    },
    { description: 'Counts over the entries matching `q`/`search`, as the protocol’s registry client reads them.' },
  ),
  description: 'A page of the property registry, ordered by publisher domain.',
});

const Issue = Type.Object({
  path: Type.String({ description: 'JSON path into the document, e.g. $.authorized_agents[0].url' }),
  message: Type.String(),
  code: Type.Optional(Type.String()),
});

export const Validation = Type.Object(
  {
    domain: Type.String(),
    url: Type.String(),
    valid: Type.Boolean(),
    status_code: Type.Optional(
      Type.Integer({ description: 'The HTTP status the file was served with; absent when nothing answered.' }),
    ),
    errors: Type.Array(Type.String(), {
      description:
        'What makes the file invalid, one line each (`<JSON path>: <message>`), as the protocol’s registry client reads them; with codes under `issues.errors`.',
    }),
    warnings: Type.Array(Type.String(), {
      description:
        'What the schema allows but a publisher should fix, one line each; with codes under `issues.warnings`.',
    }),
    issues: Type.Object(
      { errors: Type.Array(Issue), warnings: Type.Array(Issue) },
      {
        description: 'The same findings with their JSON path and stable code, in the order of `errors` and `warnings`.',
      },
    ),
  },
  { description: 'Whether the domain’s adagents.json is valid, and what to fix.' },
);

/** The most domains one property check takes (the protocol's registry client sends up to this many). */
export const maxCheckDomains = 10_000;

export const CheckBody = Type.Object({
  domains: Type.Array(Type.String({ minLength: 1, maxLength: 300 }), {
    minItems: 1,
    maxItems: maxCheckDomains,
    description: `Publisher domains (or URLs of their sites), at most ${maxCheckDomains.toLocaleString('en')}; one that is not a domain fails the check, naming the bad ones.`,
  }),
});

const Facts = {
  source: Source,
  status: Type.Union([Type.Literal('active'), Type.Literal('stale')], {
    description: '`stale`: the publisher’s adagents.json is gone or invalid.',
  }),
  agent_count: Type.Integer({ minimum: 0, description: 'Agents the entry authorizes.' }),
  verified: Verified,
};

const Summary = Type.Object(
  {
    total: Type.Integer({ minimum: 0, description: 'Domains sent.' }),
    remove: Type.Integer({ minimum: 0 }),
    modify: Type.Integer({ minimum: 0 }),
    assess: Type.Integer({ minimum: 0 }),
    ok: Type.Integer({ minimum: 0 }),
  },
  { description: 'How many of the domains sent fell in each bucket; each is in exactly one.' },
);

export const CheckResult = Type.Object(
  {
    summary: Summary,
    remove: Type.Array(
      Type.Object({
        input: Type.String(),
        canonical: Type.String(),
        reason: Type.Union([Type.Literal('duplicate'), Type.Literal('blocked')], {
          description:
            '`duplicate`: an earlier domain of the list is the same once normalized; `blocked`: advertising or web infrastructure, never a publisher.',
        }),
        domain_type: Type.Optional(
          Type.String({
            description:
              'For `blocked`: ad_server, ad_exchange, dsp, verification, measurement, tag_manager, analytics or cdn.',
          }),
        ),
        blocked_reason: Type.Optional(Type.String()),
      }),
      { description: 'Domains to take off the list.' },
    ),
    modify: Type.Array(
      Type.Object({
        input: Type.String(),
        canonical: Type.String({ description: 'The domain to use instead (for resolve and lookups too).' }),
        reason: Type.String({ description: 'What normalizing changed (a removed www. or m. prefix, the spelling).' }),
        known: Type.Boolean({
          description: 'Whether the registry has an entry for the canonical domain; its facts follow when it does.',
        }),
        source: Type.Optional(Source),
        status: Type.Optional(Facts.status),
        agent_count: Type.Optional(Facts.agent_count),
        verified: Type.Optional(Verified),
      }),
      { description: 'Domains to write as their canonical form.' },
    ),
    assess: Type.Array(Type.Object({ domain: Type.String() }), {
      description: 'Domains the registry has no entry for.',
    }),
    ok: Type.Array(Type.Object({ domain: Type.String(), ...Facts }), {
      description: 'Domains the registry has an entry for, as sent.',
    }),
    report_id: Type.String({
      format: 'uuid',
      description: 'Reads the summary back (`GET /api/properties/check/{reportId}`) until `expires_at`.',
    }),
    expires_at: Type.String({ format: 'date-time' }),
  },
  {
    description: 'The list sorted into four buckets, each domain sent into exactly one.',
    examples: [
      {
        summary: { total: 4, remove: 2, modify: 1, assess: 0, ok: 1 },
        remove: [
          { input: 'dailyharbor.example', canonical: 'dailyharbor.example', reason: 'duplicate' },
          {
            input: 'googlesyndication.com',
            canonical: 'googlesyndication.com',
            reason: 'blocked',
            domain_type: 'ad_server',
            blocked_reason: 'ad serving and ad-tag delivery, not a publisher',
          },
        ],
        modify: [
          {
            input: 'www.dailyharbor.example',
            canonical: 'dailyharbor.example',
            reason: 'removed the www. prefix',
            known: true,
            source: 'adagents_json',
            status: 'active',
            agent_count: 3,
            verified: true,
          },
        ],
        assess: [],
        ok: [
          { domain: 'pixelplay.example', source: 'adagents_json', status: 'active', agent_count: 2, verified: true },
        ],
        report_id: '0193a1c2-7d4e-7a10-8b2c-5e6f7a8b9c0d',
        expires_at: '2026-12-08T09:00:00.000Z',
      },
    ],
  },
);

export const CheckReportParams = Type.Object({
  reportId: Type.String({ format: 'uuid', description: 'The `report_id` of a check.' }),
});

export const CheckReport = Type.Object(
  {
    report_id: Type.String({ format: 'uuid' }),
    summary: Summary,
    created_at: Type.String({ format: 'date-time' }),
    expires_at: Type.String({ format: 'date-time' }),
  },
  { description: 'A check’s summary, as stored; the buckets themselves are in the check’s own answer.' },
);
