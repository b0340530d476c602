import { Type, type Static } from 'typebox';
import { PropertyId, PropertyTag } from '../../../protocol/wire/common.ts';
import { exampleAgent, exampleDomain, Finding, FreeObject, Judged, nullable, Timestamp } from './common.ts';

/** `POST /api/adagents/create`: an adagents.json written from a publisher's properties and agents. */

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
