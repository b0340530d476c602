import { Type } from 'typebox';

/** `GET /api/registry/lookup/domain/:domain`: who sells a domain's properties, both sides. */

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
