import { ApError } from '../../protocol/errors.ts';

/** The event types of the registry change feed (spec section 6, core/registry-event.json's enum). */
export const publishedEventTypes = [
  'property.created',
  'property.updated',
  'property.merged',
  'property.stale',
  'property.reactivated',
  'collection.created',
  'collection.updated',
  'collection.merged',
  'collection.removed',
  'agent.discovered',
  'agent.removed',
  'agent.profile_updated',
  'agent.compliance_changed',
  'agent.verification_earned',
  'agent.verification_lost',
  'publisher.adagents_discovered',
  'publisher.adagents_changed',
  'authorization.granted',
  'authorization.revoked',
  'authorization.modified',
] as const;

/**
 * Event types of this registry beyond the published schema's closed enum: the policy registry's
 * changes, and what resolve answers for a domain (`resolution.*`, which a mirror follows to answer
 * resolve itself). A follower validating events against core/registry-event.json would refuse
 * them, so they go only to subscriptions whose `types` name them (`policy.*`, `resolution.*`,
 * `*`); a page or stream without `types` carries the published types alone.
 */
export const extensionEventTypes = [
  'policy.created',
  'policy.updated',
  'resolution.brand_updated',
  'resolution.property_updated',
] as const;

export const eventTypes = [...publishedEventTypes, ...extensionEventTypes] as const;

export type EventType = (typeof eventTypes)[number];

/** What an event is about: its type's prefix (`property.created` is about a `property`). */
export type EntityType = EventType extends `${infer Entity}.${string}` ? Entity : never;

/** Whether a subscription without `types` gets events of this type. */
export function defaultSubscribed(type: EventType): boolean {
  return !(extensionEventTypes as readonly string[]).includes(type);
}

const maxPatterns = 50;

/**
 * The `types` filter: comma-separated glob patterns (`*` any run of characters, e.g. `property.*`)
 * expanded to the event types they match (extension types included), or undefined for the default
 * subscription (the published types). A pattern that matches no type is refused, since a misspelt
 * subscription would otherwise wait forever for nothing.
 */
export function parseTypes(value: string | undefined): EventType[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const patterns = value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (patterns.length > maxPatterns) throw invalidTypes(`at most ${maxPatterns} patterns are accepted`);
  const matched = new Set<EventType>();
  for (const pattern of patterns) {
    if (!/^[a-z_.*]{1,64}$/.test(pattern))
      throw invalidTypes(`"${pattern}" is not a pattern of letters, "_", "." and "*"`);
    const regex = new RegExp(`^${pattern.replaceAll('.', '\\.').replaceAll('*', '.*')}$`);
    const hits = eventTypes.filter((type) => regex.test(type));
    if (hits.length === 0) throw invalidTypes(`"${pattern}" matches no event type (known: ${eventTypes.join(', ')})`);
    hits.forEach((type) => matched.add(type));
  }
  const isDefault =
    matched.size === publishedEventTypes.length && publishedEventTypes.every((type) => matched.has(type));
  return isDefault ? undefined : eventTypes.filter((type) => matched.has(type));
}

function invalidTypes(message: string): ApError {
  return new ApError('validation_failed', `Invalid querystring.types: ${message}.`, {
    details: [{ in: 'querystring', field: 'types', message }],
  });
}
