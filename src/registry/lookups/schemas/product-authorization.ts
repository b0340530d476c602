import { Type, type Static } from 'typebox';
import { AgentUrl, Delegation, Identifier } from './parameters.ts';
import { selectorEcho, Selectors } from './selector.ts';

/** `POST /api/registry/validate/product-authorization`: the check over every property a product's selectors name. */

export const ProductAuthorizationBody = Type.Object(
  {
    agent_url: AgentUrl,
    delegation_type: Type.Optional(Delegation),
    publisher_properties: Selectors,
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
      ...selectorEcho,
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
