import { Type, type Static } from 'typebox';
import { Domain, PropertyId } from '../../../protocol/wire/common.ts';
import { AgentUrl, Delegation, IdentifierType, IdentifierValue } from './parameters.ts';

/** The authorization check, one or in bulk (`/api/registry/validate/property-authorization`, GET and POST). */

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
