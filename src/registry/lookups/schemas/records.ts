import { Type } from 'typebox';
import { Identifier } from './parameters.ts';

/** The records every answer names by `$id` (registered once, see index.ts): a property, a grant, an operator's declaration, a verdict. */

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

export const Declaration = Type.Object(
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
