import { Type } from 'typebox';

/** A domain as a caller sends it; the handler normalizes it (and rejects what is not a domain). */
export const Domain = Type.String({
  minLength: 1,
  maxLength: 300,
  description: 'A domain, e.g. example.com; a protocol prefix is stripped.',
});

/** Keyset pagination: an opaque cursor from a previous page. */
export const Cursor = Type.String({ maxLength: 512, description: 'Opaque cursor from the previous page.' });

/** A publisher's property_id (core/property-id.json sets no length; the registry takes up to 255 characters). */
export const PropertyId = Type.String({
  minLength: 1,
  maxLength: 255,
  description: 'The publisher’s own property_id from its adagents.json.',
});

/** A property tag (core/property-tag.json sets no length; the registry takes up to 100 characters, as brand.json's logo tags). */
export const PropertyTag = Type.String({ minLength: 1, maxLength: 100 });
