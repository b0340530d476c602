import { Type } from 'typebox';
import { eventTypes } from './event-types.ts';

const subscriptionNote =
  'A cursor belongs to its `types` subscription: it marks the last event that subscription saw, so reusing it with ' +
  'a different `types` filter can skip events that the new filter matches.';

export const FeedQuery = Type.Object({
  cursor: Type.Optional(
    Type.String({
      format: 'uuid',
      description: `The \`cursor\` of the previous page or stream message; omit it to start at the earliest retained event. ${subscriptionNote}`,
    }),
  ),
  types: Type.Optional(
    Type.String({
      maxLength: 2000,
      description:
        'Comma-separated glob patterns of event types (`*` matches any run of characters), e.g. `property.*,authorization.granted`. A pattern that matches no type is refused (400). ' +
        'Without it, the types of the published schema (core/registry-event.json); this registry’s own event types (the policy registry’s `policy.created`, `policy.updated`; what resolve answers, `resolution.brand_updated`, `resolution.property_updated`) come only to a subscription that names them.',
      examples: ['property.*'],
    }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 10000, default: 100, description: 'Events per page (1 to 10,000).' }),
  ),
});

const Event = Type.Object(
  {
    event_id: Type.String({
      format: 'uuid',
      description: 'UUID v7, assigned in commit order: the ordering key and a cursor.',
    }),
    event_type: Type.Union(eventTypes.map((t) => Type.Literal(t))),
    entity_type: Type.String({ examples: ['property'] }),
    entity_id: Type.String(),
    payload: Type.Object(
      {},
      { additionalProperties: true, description: 'Event-specific; shapes per core/registry-event.json.' },
    ),
    actor: Type.String({
      description:
        'Who caused the event, for audit (e.g. pipeline:crawler, api:user:...). Not an authorization principal.',
    }),
    created_at: Type.String({
      format: 'date-time',
      description: 'ISO 8601 UTC with milliseconds; the millisecond of event_id.',
    }),
  },
  { $id: 'FeedEvent', description: 'A registry change event (core/registry-event.json).' },
);

const Freshness = Type.Object({
  generated_at: Type.String({ format: 'date-time' }),
  latest_event_created_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'Newest matching event in the feed.',
  }),
  lag_seconds: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  retention_days: Type.Integer({ minimum: 1 }),
});

export const FeedPage = Type.Object(
  {
    events: Type.Array(Type.Ref('FeedEvent')),
    cursor: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
      description:
        'Pass it as `cursor` next time. When nothing new matched it is the cursor given, so polling again with it is safe; null only when there is neither an event nor a cursor.',
    }),
    has_more: Type.Boolean({ description: 'More events are available now: ask again at once with the new cursor.' }),
    freshness: Freshness,
  },
  { $id: 'FeedPage', description: 'A page of the change feed (core/registry-feed-response.json).' },
);

export const feedSchemas = [Event, FeedPage];

export const StreamQuery = FeedQuery;

export const SnapshotQuery = Type.Object({
  page_token: Type.Optional(
    Type.String({
      maxLength: 1024,
      description: 'The `next_page_token` of the previous snapshot page; omit it to begin.',
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 500, description: 'Items per page.' })),
});

/**
 * A page of a snapshot of the given entity types (the ones its sections hold), documented with the
 * listing's own description and example.
 */
export function snapshotPageSchema(
  entityTypes: readonly string[],
  options: { description: string; example: Record<string, unknown> },
) {
  return Type.Object(
    {
      cursor: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
        description:
          'The feed cursor to tail from once every page is loaded (null: the feed was empty; start without a cursor). The same on every page of one snapshot.',
      }),
      items: Type.Array(
        Type.Object({
          entity_type: oneOfLiterals([...new Set(entityTypes)]),
          entity_id: Type.String({ description: 'The entity_id feed events about this entity carry.' }),
          data: Type.Object(
            {},
            {
              additionalProperties: true,
              description: 'The entity as it is now; the same shape feed events carry in their payload.',
            },
          ),
        }),
        {
          description: 'Each entity exactly once across the pages of one snapshot, section after section in key order.',
        },
      ),
      next_page_token: Type.Union([Type.String(), Type.Null()], {
        description: 'Pass it as `page_token` for the next page; null on the last page.',
      }),
      has_more: Type.Boolean(),
    },
    { description: options.description, examples: [options.example] },
  );
}

/** The one literal itself, as a union of one is illogical to OpenAPI linters. */
function oneOfLiterals(values: string[]) {
  return values.length === 1 ? Type.Literal(values[0]!) : Type.Union(values.map((v) => Type.Literal(v)));
}
