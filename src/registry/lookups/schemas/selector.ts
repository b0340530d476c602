import { Type } from 'typebox';
import { Domain, PropertyId, PropertyTag } from '../../../protocol/wire/common.ts';
import { IdentifierType, IdentifierValue } from './parameters.ts';

export const maxSelectors = 100;

/**
 * core/publisher-property-selector.json, plus `inline` (properties given in full), and the
 * protocol's registry client's selector (`{publisher_domain, property_types?, property_ids?, tags?}`,
 * no selection_type); checked per type by selectors.ts.
 */
export const Selector = Type.Object(
  {
    selection_type: Type.Optional(
      Type.Enum(['all', 'by_id', 'by_tag', 'inline'], {
        description:
          'Without it, the selector is by_id when it lists property_ids, by_tag when it lists tags, else all.',
      }),
    ),
    publisher_domain: Type.Optional(Domain),
    property_ids: Type.Optional(Type.Array(PropertyId, { maxItems: 1000 })),
    property_tags: Type.Optional(Type.Array(PropertyTag, { maxItems: 1000 })),
    tags: Type.Optional(
      Type.Array(PropertyTag, {
        maxItems: 1000,
        description: 'The protocol’s registry client’s name for `property_tags`.',
      }),
    ),
    property_types: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9_]+$' }), {
        maxItems: 100,
        description: 'Only properties of these types (website, mobile_app, ctv_app, ...).',
      }),
    ),
    properties: Type.Optional(
      Type.Array(
        Type.Object({
          property_type: Type.Optional(Type.String({ maxLength: 64 })),
          name: Type.Optional(Type.String({ maxLength: 300 })),
          identifiers: Type.Array(Type.Object({ type: IdentifierType, value: IdentifierValue }), {
            minItems: 1,
            maxItems: 100,
          }),
        }),
        { maxItems: 1000 },
      ),
    ),
  },
  {
    examples: [
      { publisher_domain: 'dailyplanet.example', selection_type: 'by_tag', property_tags: ['news'] },
      { publisher_domain: 'dailyplanet.example', tags: ['news'] },
    ],
  },
);

/** A request's selectors: the properties a product sells. */
export const Selectors = Type.Array(Selector, { minItems: 1, maxItems: maxSelectors });

/** What an answer repeats of each selector, before what the selector came to. */
export const selectorEcho = {
  index: Type.Integer(),
  selection_type: Type.String(),
  publisher_domain: Type.Union([Type.String(), Type.Null()]),
};
