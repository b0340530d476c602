import { Type, type TSchema } from 'typebox';
import { maxLikeText } from '../../db/like.ts';
import { Cursor, Domain } from '../../protocol/wire/common.ts';

/** Wire schemas every entity shares, and the builders of those that differ only in names and words. */

export const DomainQuery = Type.Object({ domain: Domain });

export function bulkBody(description: string) {
  return Type.Object(
    { domains: Type.Array(Domain, { minItems: 1, maxItems: 100, description }) },
    { additionalProperties: false },
  );
}

/** The bulk answer: each requested domain's `resolution` (a schema `$id`), or null. */
export function bulkResults(resolution: string) {
  return Type.Object(
    {
      results: Type.Record(Type.String(), Type.Union([Type.Ref(resolution), Type.Null()]), {
        description: 'Keyed by each domain as sent; null when unknown.',
      }),
    },
    { description: 'One result per requested domain.' },
  );
}

/** The answer of a save or a rollback; `extras` come between the message and the id. */
export function saveResult(extras: Record<string, TSchema>, revisionNumber: string, description: string) {
  return Type.Object(
    {
      success: Type.Boolean(),
      message: Type.String(),
      ...extras,
      id: Type.String(),
      revision_number: Type.Optional(Type.Integer({ description: revisionNumber })),
    },
    { description },
  );
}

/** The deepest `offset` the listings page to: past it, the keyset `cursor` pages at the same cost at any depth. */
export const maxListingOffset = 10_000;

/**
 * The listing's query. Our names and the protocol's registry client's both: `q` or `search` (the
 * same text; both given must agree), `cursor` (keyset) or `offset` (bounded), `limit`, `source`.
 */
export function registryQuery(source: TSchema, q: string) {
  return Type.Object({
    q: Type.Optional(Type.String({ maxLength: maxLikeText, description: q })),
    search: Type.Optional(
      Type.String({
        maxLength: maxLikeText,
        description:
          'The same as `q` (the name the protocol’s registry client sends); when both are given they must be equal.',
      }),
    ),
    source: Type.Optional(source),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    cursor: Type.Optional(Cursor),
    offset: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: maxListingOffset,
        description: `Entries to skip, at most ${maxListingOffset.toLocaleString('en')} (what the protocol’s registry client pages by); deeper pages follow \`cursor\`. Not together with \`cursor\`.`,
      }),
    ),
  });
}

/**
 * A page of the registry listing: the entries (schema `$id` `entry`) under `listKey`, counts by
 * source, the `stats` the protocol's registry client reads and the next cursor.
 */
export function registryPage(o: {
  listKey: string;
  entry: string;
  total?: string;
  counts: TSchema;
  stats: TSchema;
  cursor?: string;
  description: string;
}) {
  const described = (description: string | undefined) => (description === undefined ? {} : { description });
  return Type.Object(
    {
      [o.listKey]: Type.Array(Type.Ref(o.entry)),
      total: Type.Integer(described(o.total)),
      counts: o.counts,
      stats: o.stats,
      cursor: Type.Union([Type.String(), Type.Null()], described(o.cursor)),
      has_more: Type.Boolean(),
    },
    { description: o.description },
  );
}

export const Revision = Type.Object(
  {
    revision_number: Type.Integer({ minimum: 1 }),
    editor_name: Type.String({ description: '`system` marks automated enrichment.' }),
    edit_summary: Type.String(),
    source: Type.String({ description: 'Source of the entry at this revision, e.g. community or enriched.' }),
    is_rollback: Type.Boolean(),
    rolled_back_to: Type.Optional(
      Type.Integer({ minimum: 1, description: 'The restored revision, when is_rollback is true.' }),
    ),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Revision' },
);

export const History = Type.Object(
  {
    domain: Type.String(),
    total: Type.Integer({ minimum: 0 }),
    revisions: Type.Array(Type.Ref('Revision'), { description: 'Newest first.' }),
  },
  { description: 'Revision history of the entry.' },
);

/** Which page of a revision history to answer (newest first): 20 revisions unless asked. */
export const historyPage = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
};

export const HistoryQuery = Type.Object({ domain: Domain, ...historyPage });

export const RollbackBody = Type.Object(
  {
    domain: Domain,
    to_revision: Type.Integer({ minimum: 1, description: 'The revision whose content to restore.' }),
  },
  { additionalProperties: false },
);
