import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../db/database.ts';
import { decodeCursor, encodeCursor } from '../../../protocol/cursor.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import type { EntityKind, EntryRow } from '../kind.ts';
import { countBySource, listPage } from '../sql.ts';

interface RegistryQuery {
  q?: string;
  source?: string;
  limit?: number;
  cursor?: string;
}

export function registryRoute<Row extends EntryRow, Fields, Body>(app: FastifyInstance, db: Database, kind: EntityKind<Row, Fields, Body>): void {
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
      const { q, source, cursor } = request.query;
      const limit = request.query.limit ?? 50;
      const after = decodeCursor(cursor, ['domain'])?.domain;
      const [rows, counts] = await Promise.all([listPage<Row>(db, tables, { q, source, after, limit }), countBySource(db, tables, q)]);
      const page = rows.slice(0, limit);
      const hasMore = rows.length > limit;
      return {
        [wire.listKey]: page.map(wire.listed),
        total: source ? counts[source] : Object.values(counts).reduce((a, b) => a + b, 0),
        counts,
        cursor: hasMore ? encodeCursor({ domain: kind.domainOf(page.at(-1)!) }) : null,
        has_more: hasMore,
      };
    },
  );
}
