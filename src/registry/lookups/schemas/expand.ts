import { Type, type Static } from 'typebox';
import { AgentUrl, Identifier } from './parameters.ts';
import { selectorEcho, Selectors } from './selector.ts';

/** `POST /api/registry/expand/product-identifiers`: the properties and identifiers a product's selectors name. */

export const ExpandBody = Type.Object(
  {
    agent_url: Type.Optional({
      ...AgentUrl,
      description: 'The agent the product is for (the protocol’s registry client sends it); echoed, not used.',
    }),
    publisher_properties: Selectors,
  },
  { additionalProperties: false },
);
export type ExpandBody = Static<typeof ExpandBody>;

export const ExpandResponse = Type.Object({
  selectors: Type.Array(
    Type.Object({
      ...selectorEcho,
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
