import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../db/database.ts';
import { decodeCursor, encodeCursor } from '../../../protocol/cursor.ts';
import { ApError } from '../../../protocol/errors.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import type { EntityKind, EntryRow } from '../kind.ts';
import { listPage, tally } from '../sql.ts';

interface RegistryQuery {
  q?: string;
  search?: string;
  source?: string;
  limit?: number;
  cursor?: string;
  offset?: number;
}

export function registryRoute<Row extends EntryRow, Fields, Body>(
  app: FastifyInstance,
  db: Database,
  kind: EntityKind<Row, Fields, Body>,
): void {
  const { wire, tables } = kind;
  app.get<{ Querystring: RegistryQuery }>(
    `${wire.path}/registry`,
    {
      schema: {
        ...wire.docs.registry,
        tags: [wire.tag],
        querystring: wire.schemas.RegistryQuery,
        response: { 200: wire.schemas.RegistryPage, ...errorResponses(400) },
      },
    },
    async (request) => {
      const { source, cursor, offset } = request.query;
      const q = searchText(request.query);
      if (cursor !== undefined && offset !== undefined) {
        throw refusal('offset', 'page by cursor or by offset, not both');
      }
      const limit = request.query.limit ?? 50;
      const after = decodeCursor(cursor, ['domain'])?.domain;
      const [rows, counts] = await Promise.all([
        listPage<Row>(db, tables, { q, source, after, offset, limit }),
        tally(db, tables, q),
      ]);
      const page = rows.slice(0, limit);
      const hasMore = rows.length > limit;
      const all = Object.values(counts.bySource).reduce((a, b) => a + b, 0);
      return {
        [wire.listKey]: page.map(wire.listed),
        // A source the entity never has (a brand's `hosted`) matches nothing.
        total: source ? (counts.bySource[source] ?? 0) : all,
        counts: counts.bySource,
        stats: { total: all, ...counts.bySource, ...counts.tallies },
        // The keyset cursor of the page's last entry, however the page was reached: a client may switch to it.
        cursor: hasMore ? encodeCursor({ domain: kind.domainOf(page.at(-1)!) }) : null,
        has_more: hasMore,
      };
    },
  );
}

/** `q`, or `search` as the protocol's registry client names it; both, only when they agree. */
function searchText({ q, search }: RegistryQuery): string | undefined {
  if (q !== undefined && search !== undefined && q !== search)
    throw refusal('search', 'q and search are the same parameter; send one, or both equal');
  return q ?? search;
}

function refusal(field: string, message: string): ApError {
  return new ApError('validation_failed', `Invalid querystring.${field}: ${message}.`, {
    details: [{ in: 'querystring', field, message }],
  });
}
