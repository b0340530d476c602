import { Type } from 'typebox';
import { Domain } from '../../../protocol/wire/common.ts';
import { OperatorDeclaration } from '../../lookups/index.ts';
import { exampleAgent, exampleDomain, exampleUrl, Finding, nullable, Omitted, Timestamp } from './common.ts';

/** `GET /api/public/validate-publisher`: a publisher's live file judged beside what the registry holds. */

export const DomainQuery = Type.Object({ domain: Domain });

/** An operator's declaration as the check answers it, with the publisher's properties it names. */
const Relationship = Type.Object(
  {
    ...OperatorDeclaration.properties,
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
