import { Type } from 'typebox';
import { Cursor } from '../../../protocol/wire/common.ts';
import { queriedType } from './fields.ts';

/** Searching sales agents' inventory profiles (`GET /api/registry/agents/search`). */

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
    queriedType(
      'Only agents of this type. Inventory profiles are sales agents’ (and those of enrolled agents of another type that publishers authorize); unknown and si match none.',
    ),
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
