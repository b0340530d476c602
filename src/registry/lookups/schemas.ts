import { Type, type Static } from 'typebox';
import { Cursor, Domain, PropertyId, PropertyTag } from '../../protocol/wire/common.ts';

/** Wire schemas of the lookups and authorization checks (spec section 4; shapes from the 3.0.6 schemas). */

// Enums rather than unions of literals, so a wrong value is told in one line naming the choices.
const Delegation = Type.Enum(['direct', 'delegated', 'ad_network'], {
  description:
    'The commercial relationship claimed (adagents.json `delegation_type`); the operator side must declare a matching `relationship` (`owned` matches `direct`).',
});
const AgentUrl = Type.String({
  format: 'uri',
  minLength: 1,
  maxLength: 2048,
  description: 'The agent’s URL; compared in canonical form (scheme and host case, default port, escapes).',
  examples: ['https://sales.meridian-media.example/mcp'],
});
const IdentifierType = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[a-z0-9_]+$',
  description: 'Identifier type (enums/identifier-types.json), e.g. domain, ios_bundle, roku_store_id.',
  examples: ['domain'],
});
const IdentifierValue = Type.String({
  minLength: 1,
  maxLength: 512,
  description: 'Identifier value; domains compare case-insensitively, other identifiers exactly.',
  examples: ['dailyplanet.example'],
});

const Identifier = Type.Object({ type: Type.String(), value: Type.String() });

export const PropertySummary = Type.Object(
  {
    property_rid: Type.String({ format: 'uuid' }),
    publisher_domain: Type.String(),
    property_id: Type.Union([Type.String(), Type.Null()]),
    property_type: Type.String(),
    name: Type.String(),
    identifiers: Type.Array(Identifier),
    tags: Type.Array(Type.String()),
    status: Type.Union([Type.Literal('active'), Type.Literal('stale')]),
  },
  {
    $id: 'LookupProperty',
    description: 'A property of the registry’s catalog, as its publisher’s adagents.json declares it.',
  },
);

export const GrantSummary = Type.Object(
  {
    authorization_id: Type.String({ format: 'uuid' }),
    agent_url: Type.String({ description: 'As the publisher wrote it.' }),
    agent_url_canonical: Type.String(),
    source_domain: Type.String({
      description: 'Whose adagents.json grants it (a manager’s file may grant other publishers’ properties).',
    }),
    authorization_type: Type.String(),
    authorized_for: Type.Union([Type.String(), Type.Null()]),
    delegation_type: Type.Union([Type.String(), Type.Null()]),
    exclusive: Type.Optional(Type.Boolean()),
    countries: Type.Optional(Type.Array(Type.String())),
    signing_keys: Type.Optional(
      Type.Array(Type.Unknown(), {
        description: 'Signing keys the publisher pins for this agent (advisory; verify against the publisher’s file).',
      }),
    ),
  },
  { $id: 'LookupAuthorization', description: 'One authorized_agents[] entry of a publisher’s adagents.json.' },
);

const Declaration = Type.Object(
  {
    operator_domain: Type.String(),
    brand_id: Type.String(),
    relationship: Type.String({
      description: 'owned, direct, delegated or ad_network, as the operator’s brand.json declares it.',
    }),
    agents: Type.Array(Type.String(), { description: 'Canonical URLs of the agents the operator’s brand.json lists.' }),
  },
  { $id: 'OperatorDeclaration' },
);

/** Exactly property/authorization-result.json (3.0.6), whose fields admit nothing else. */
export const AuthorizationResult = Type.Object(
  {
    status: Type.Union([Type.Literal('authorized'), Type.Literal('unauthorized'), Type.Literal('unknown')]),
    publisher_domain: Type.Optional(Type.String()),
    sales_agent_url: Type.Optional(Type.String({ format: 'uri' })),
    violation: Type.Optional(
      Type.Object(
        {
          code: Type.String({
            description:
              'publisher_file_unknown, property_not_found, property_stale, agent_not_authorized, delegation_mismatch, operator_not_declared or relationship_mismatch.',
          }),
          message: Type.String(),
        },
        { additionalProperties: false },
      ),
    ),
  },
  {
    $id: 'AuthorizationResult',
    additionalProperties: false,
    description:
      'property/authorization-result.json. `violation` is present whenever status is not authorized (for unknown it says why not).',
  },
);

export const CheckResponse = Type.Object(
  {
    // First: the GET keeps its answers serialized without the time and stamps it per request (routes/check.ts).
    checked_at: Type.String({
      format: 'date-time',
      description: 'When the registry answered; the verdict is the index’s as of then.',
    }),
    authorized: Type.Boolean({
      description: '`result.status` is `authorized` (the field the protocol’s registry client reads).',
    }),
    agent_url: Type.String({ description: 'The agent URL as asked.' }),
    identifier_type: Type.Optional(
      Type.String({ description: 'As asked, when the property was named by identifier.' }),
    ),
    identifier_value: Type.Optional(
      Type.String({ description: 'As asked, when the property was named by identifier.' }),
    ),
    result: Type.Ref('AuthorizationResult'),
    agent_url_canonical: Type.String(),
    delegation_type: Type.Union([Type.String(), Type.Null()], {
      description: 'The claim, else the delegation the publisher states.',
    }),
    property: Type.Union([Type.Ref('LookupProperty'), Type.Null()]),
    publisher: Type.Object(
      {
        domain: Type.Union([Type.String(), Type.Null()]),
        file: Type.Union([Type.Literal('found'), Type.Literal('stale'), Type.Literal('unknown')]),
        authorizations: Type.Array(Type.Ref('LookupAuthorization'), {
          description: 'The agent’s grants covering the property, any delegation.',
        }),
        delegation_confirmed: Type.Boolean(),
      },
      { description: 'The publisher side: its adagents.json.' },
    ),
    operator: Type.Object(
      {
        declarations: Type.Array(Type.Ref('OperatorDeclaration'), {
          description: 'Every operator brand.json that declares the property.',
        }),
        confirmed_by: Type.Union([Type.Ref('OperatorDeclaration'), Type.Null()]),
        relationship_confirmed: Type.Boolean(),
      },
      { description: 'The operator side: brand.json of whoever runs the agent.' },
    ),
  },
  {
    $id: 'PropertyAuthorizationCheck',
    examples: [
      {
        checked_at: '2026-11-24T09:30:00.000Z',
        authorized: true,
        agent_url: 'https://sales.meridian-media.example/mcp',
        identifier_type: 'domain',
        identifier_value: 'dailyplanet.example',
        result: {
          status: 'authorized',
          publisher_domain: 'dailyplanet.example',
          sales_agent_url: 'https://sales.meridian-media.example/mcp',
        },
        agent_url_canonical: 'https://sales.meridian-media.example/mcp',
        delegation_type: 'delegated',
        property: {
          property_rid: '0190a5b2-7c1e-7000-8000-3f2a9c1d4e5b',
          publisher_domain: 'dailyplanet.example',
          property_id: 'site',
          property_type: 'website',
          name: 'Daily Planet',
          identifiers: [{ type: 'domain', value: 'dailyplanet.example' }],
          tags: ['news'],
          status: 'active',
        },
        publisher: {
          domain: 'dailyplanet.example',
          file: 'found',
          authorizations: [
            {
              authorization_id: '0190a5b2-7c1e-7000-8000-9b8a7c6d5e4f',
              agent_url: 'https://sales.meridian-media.example/mcp',
              agent_url_canonical: 'https://sales.meridian-media.example/mcp',
              source_domain: 'dailyplanet.example',
              authorization_type: 'property_ids',
              authorized_for: 'Display and app inventory',
              delegation_type: 'delegated',
            },
          ],
          delegation_confirmed: true,
        },
        operator: {
          declarations: [
            {
              operator_domain: 'meridian-media.example',
              brand_id: 'meridian',
              relationship: 'delegated',
              agents: ['https://sales.meridian-media.example/mcp'],
            },
          ],
          confirmed_by: {
            operator_domain: 'meridian-media.example',
            brand_id: 'meridian',
            relationship: 'delegated',
            agents: ['https://sales.meridian-media.example/mcp'],
          },
          relationship_confirmed: true,
        },
      },
    ],
  },
);

export const CheckQuery = Type.Object({
  agent_url: AgentUrl,
  identifier_type: Type.Optional(IdentifierType),
  identifier_value: Type.Optional(IdentifierValue),
  publisher_domain: Type.Optional(Domain),
  property_id: Type.Optional(PropertyId),
  delegation_type: Type.Optional(Delegation),
});
export type CheckQuery = Static<typeof CheckQuery>;

export const maxBulkChecks = 1000;

export const BulkCheckBody = Type.Object(
  {
    checks: Type.Array(
      Type.Object(
        {
          agent_url: AgentUrl,
          identifier: Type.Optional(
            Type.Object({ type: IdentifierType, value: IdentifierValue }, { additionalProperties: false }),
          ),
          publisher_domain: Type.Optional(Domain),
          property_id: Type.Optional(PropertyId),
          delegation_type: Type.Optional(Delegation),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: maxBulkChecks },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        checks: [
          {
            agent_url: 'https://sales.meridian-media.example/mcp',
            identifier: { type: 'domain', value: 'dailyplanet.example' },
            delegation_type: 'delegated',
          },
          {
            agent_url: 'https://sales.meridian-media.example/mcp',
            publisher_domain: 'dailyplanet.example',
            property_id: 'ios_app',
          },
        ],
      },
    ],
  },
);
export type BulkCheckBody = Static<typeof BulkCheckBody>;

export const BulkCheckResponse = Type.Object({
  results: Type.Array(Type.Ref('PropertyAuthorizationCheck'), { description: 'One per check, in order.' }),
});

/** How the agent catalog knows an agent: enrolled by a member organization and listed publicly, or only seen in the graph. */
const catalogStanding = {
  source: Type.Union([Type.Literal('registered'), Type.Literal('discovered')], {
    description:
      '`registered`: enrolled in the public catalog by a member organization; `discovered`: known only from publishers’ and operators’ files (or not listed publicly).',
  }),
  member: Type.Optional(
    Type.Object(
      { slug: Type.String(), display_name: Type.String() },
      { description: 'The organization that enrolled it, when registered.' },
    ),
  ),
};

const PropertyBrief = Type.Object({
  property_rid: Type.String(),
  property_id: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  status: Type.String(),
});

export const DomainLookup = Type.Object({
  domain: Type.String(),
  publisher: Type.Object({
    status: Type.Union([Type.Literal('active'), Type.Literal('stale'), Type.Literal('unknown')], {
      description: 'unknown: the registry has no adagents.json for this domain.',
    }),
    reason: Type.Optional(Type.String()),
    property_count: Type.Integer(),
    collection_count: Type.Integer(),
  }),
  agents: Type.Array(
    Type.Intersect([
      Type.Ref('LookupAuthorization'),
      Type.Object({
        properties: Type.Array(PropertyBrief, { description: 'The domain’s properties this grant covers.' }),
      }),
    ]),
    {
      description:
        'One entry per grant reaching the domain’s properties (its publisher’s, or those identified by the domain).',
    },
  ),
  authorized_agents: Type.Array(
    Type.Object({
      url: Type.String({ description: 'The agent’s canonical URL.' }),
      authorized_for: Type.Optional(
        Type.String({
          description: 'What its grants say it is authorized for (several grants’ texts joined by "; ").',
        }),
      ),
      ...catalogStanding,
    }),
    { description: 'The agents of `agents[]`, one entry per agent (the protocol’s registry client reads these).' },
  ),
  sales_agents_claiming: Type.Array(
    Type.Object({ url: Type.String({ description: 'The agent’s canonical URL.' }), ...catalogStanding }),
    {
      description:
        'The agent side: agents listed by an operator whose brand.json declares one of the domain’s properties (a claim to sell it, whether or not the publisher authorizes the agent), one entry per agent.',
    },
  ),
});

const identifierParameter = (p: typeof IdentifierType | typeof IdentifierValue, description: string) =>
  Type.Optional({ ...p, description });

export const PropertyLookupQuery = Type.Object({
  identifier_type: identifierParameter(
    IdentifierType,
    'Identifier type (enums/identifier-types.json), e.g. domain, ios_bundle, roku_store_id; `type` is the same parameter.',
  ),
  identifier_value: identifierParameter(
    IdentifierValue,
    'Identifier value; domains compare case-insensitively, other identifiers exactly; `value` is the same parameter.',
  ),
  type: identifierParameter(IdentifierType, 'The protocol’s registry client’s name for `identifier_type`.'),
  value: identifierParameter(IdentifierValue, 'The protocol’s registry client’s name for `identifier_value`.'),
});
export type PropertyLookupQuery = Static<typeof PropertyLookupQuery>;

export const PropertyLookup = Type.Object({
  identifier: Identifier,
  type: Type.String({ description: '`identifier.type` (the field the protocol’s registry client reads).' }),
  value: Type.String({ description: '`identifier.value`, normalized as compared.' }),
  properties: Type.Array(Type.Ref('LookupProperty')),
  agents: Type.Array(
    Type.Intersect([Type.Ref('LookupAuthorization'), Type.Object({ property_rids: Type.Array(Type.String()) })]),
  ),
  count: Type.Integer({ description: 'Entries in `agents`.' }),
});

export const AgentDomainsQuery = Type.Object({
  cursor: Type.Optional(Cursor),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
});

export const AgentDomains = Type.Object({
  agent_url: Type.String(),
  agent_url_canonical: Type.String(),
  total: Type.Integer({ description: 'Domains in all pages.' }),
  count: Type.Integer({ description: 'Domains in this page.' }),
  domains: Type.Array(Type.String(), {
    description: 'The publisher domains of this page, in order (each detailed in `publishers`).',
  }),
  publishers: Type.Array(
    Type.Object({
      domain: Type.String(),
      status: Type.Union([Type.Literal('active'), Type.Literal('stale'), Type.Literal('unknown')]),
      property_count: Type.Integer({ description: 'Properties of the domain the agent is authorized for.' }),
      authorizations: Type.Array(
        Type.Object({
          authorization_id: Type.String(),
          source_domain: Type.String(),
          authorized_for: Type.Union([Type.String(), Type.Null()]),
          delegation_type: Type.Union([Type.String(), Type.Null()]),
        }),
      ),
    }),
  ),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
  has_more: Type.Boolean(),
});

export const maxSelectors = 100;

/**
 * core/publisher-property-selector.json, plus `inline` (properties given in full), and the
 * protocol's registry client's selector (`{publisher_domain, property_types?, property_ids?, tags?}`,
 * no selection_type); checked per type by selectors.ts.
 */
export const Selector = Type.Object(
  {
    selection_type: Type.Optional(
      Type.Enum(['all', 'by_id', 'by_tag', 'inline'], {
        description:
          'Without it, the selector is by_id when it lists property_ids, by_tag when it lists tags, else all.',
      }),
    ),
    publisher_domain: Type.Optional(Domain),
    property_ids: Type.Optional(Type.Array(PropertyId, { maxItems: 1000 })),
    property_tags: Type.Optional(Type.Array(PropertyTag, { maxItems: 1000 })),
    tags: Type.Optional(
      Type.Array(PropertyTag, {
        maxItems: 1000,
        description: 'The protocol’s registry client’s name for `property_tags`.',
      }),
    ),
    property_types: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9_]+$' }), {
        maxItems: 100,
        description: 'Only properties of these types (website, mobile_app, ctv_app, ...).',
      }),
    ),
    properties: Type.Optional(
      Type.Array(
        Type.Object({
          property_type: Type.Optional(Type.String({ maxLength: 64 })),
          name: Type.Optional(Type.String({ maxLength: 300 })),
          identifiers: Type.Array(Type.Object({ type: IdentifierType, value: IdentifierValue }), {
            minItems: 1,
            maxItems: 100,
          }),
        }),
        { maxItems: 1000 },
      ),
    ),
  },
  {
    examples: [
      { publisher_domain: 'dailyplanet.example', selection_type: 'by_tag', property_tags: ['news'] },
      { publisher_domain: 'dailyplanet.example', tags: ['news'] },
    ],
  },
);

export const ExpandBody = Type.Object(
  {
    agent_url: Type.Optional({
      ...AgentUrl,
      description: 'The agent the product is for (the protocol’s registry client sends it); echoed, not used.',
    }),
    publisher_properties: Type.Array(Selector, { minItems: 1, maxItems: maxSelectors }),
  },
  { additionalProperties: false },
);
export type ExpandBody = Static<typeof ExpandBody>;

export const ExpandResponse = Type.Object({
  selectors: Type.Array(
    Type.Object({
      index: Type.Integer(),
      selection_type: Type.String(),
      publisher_domain: Type.Union([Type.String(), Type.Null()]),
      publisher_status: Type.Union([
        Type.Literal('active'),
        Type.Literal('stale'),
        Type.Literal('unknown'),
        Type.Literal('inline'),
      ]),
      properties: Type.Array(
        Type.Object({
          property_rid: Type.Union([Type.String(), Type.Null()]),
          property_id: Type.Union([Type.String(), Type.Null()]),
          name: Type.String(),
          property_type: Type.String(),
          identifiers: Type.Array(Identifier),
        }),
      ),
      identifiers: Type.Array(Identifier),
    }),
  ),
  properties: Type.Array(
    Type.Object({
      property_rid: Type.Union([Type.String(), Type.Null()]),
      property_id: Type.Union([Type.String(), Type.Null()]),
      publisher_domain: Type.Union([Type.String(), Type.Null()]),
      name: Type.String(),
      property_type: Type.String(),
      identifiers: Type.Array(Identifier),
    }),
    { description: 'Every property of every selector, once (inline ones as given, without rid, id or publisher).' },
  ),
  identifiers: Type.Array(
    Type.Object({
      type: Type.String(),
      value: Type.String(),
      property_id: Type.Union([Type.String(), Type.Null()], {
        description: 'Of the first selected property carrying it; null when only an inline one does.',
      }),
      publisher_domain: Type.Union([Type.String(), Type.Null()]),
    }),
    { description: 'Every identifier of every selector, once, with the property that carries it.' },
  ),
  property_count: Type.Integer({ description: 'Entries in `properties`.' }),
  identifier_count: Type.Integer({ description: 'Entries in `identifiers`.' }),
  agent_url: Type.Optional(Type.String({ description: 'As sent.' })),
  generated_at: Type.String({ format: 'date-time' }),
});

export const ProductAuthorizationBody = Type.Object(
  {
    agent_url: AgentUrl,
    delegation_type: Type.Optional(Delegation),
    publisher_properties: Type.Array(Selector, { minItems: 1, maxItems: maxSelectors }),
  },
  { additionalProperties: false },
);
export type ProductAuthorizationBody = Static<typeof ProductAuthorizationBody>;

export const ProductAuthorization = Type.Object({
  agent_url: Type.String({ description: 'As sent.' }),
  agent_url_canonical: Type.String(),
  authorized: Type.Boolean({ description: 'Every selected property is authorized.' }),
  checked_at: Type.String({ format: 'date-time' }),
  selectors: Type.Array(
    Type.Object({
      index: Type.Integer(),
      selection_type: Type.String(),
      publisher_domain: Type.Union([Type.String(), Type.Null()]),
      counts: Type.Object({ authorized: Type.Integer(), unauthorized: Type.Integer(), unknown: Type.Integer() }),
      violation: Type.Optional(
        Type.Object(
          { code: Type.String(), message: Type.String() },
          { description: 'Why the selector matched no property.' },
        ),
      ),
      properties: Type.Array(
        Type.Object({
          property: Type.Union([Type.Ref('LookupProperty'), Type.Null()]),
          identifiers: Type.Array(Identifier),
          result: Type.Ref('AuthorizationResult'),
        }),
      ),
    }),
  ),
});

export const lookupSchemas = [AuthorizationResult, PropertySummary, GrantSummary, Declaration, CheckResponse];
