import { Type, type Static } from 'typebox';
import { Identifier, IdentifierType, IdentifierValue } from './parameters.ts';

/** `GET /api/registry/lookup/property`: the properties and agents an identifier names. */

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
