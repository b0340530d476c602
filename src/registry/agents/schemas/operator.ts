import { Type } from 'typebox';
import { Domain } from '../../../protocol/wire/common.ts';
import { AgentType, Enroller, Visibility } from './fields.ts';

/** The agents a domain operates (`GET /api/registry/operator`). */

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
    operator: Type.Optional(Enroller),
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
