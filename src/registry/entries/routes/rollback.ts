import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { normalizeDomain } from '../../../protocol/domain.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { proofCheck } from '../../ownership/index.ts';
import type { EntityKind, EntryRow } from '../kind.ts';
import { rollbackEntry } from '../rollback.ts';
import { RollbackBody } from '../schemas.ts';
import { editRouteOptions } from './edit-options.ts';

function rollbackDocs(noun: string) {
  return {
    summary: `Roll a ${noun} back to an earlier revision`,
    description: 'Adds a revision with the earlier content, marked is_rollback with rolled_back_to.',
  };
}

export function rollbackRoute<Row extends EntryRow, Fields, Body>(
  app: FastifyInstance,
  ctx: AppContext,
  kind: EntityKind<Row, Fields, Body>,
): void {
  const { wire } = kind;
  const proof = proofCheck(ctx);
  app.post<{ Body: Static<typeof RollbackBody> }>(
    `${wire.path}/rollback`,
    editRouteOptions(ctx, wire.tag, rollbackDocs(kind.noun), {
      body: RollbackBody,
      response: { 200: wire.schemas.SaveResult, ...errorResponses(400, 401, 403, 404, 409, 415, 429) },
    }),
    async (request) => {
      const { to_revision } = request.body;
      const domain = normalizeDomain(request.body.domain, { in: 'body' });
      const row = await rollbackEntry(ctx.db, kind, domain, to_revision, request.principal!, proof);
      return {
        success: true,
        message: `${kind.title(domain)} rolled back to revision ${to_revision} as revision ${row.revision}.`,
        ...wire.resultExtras(domain),
        id: row.id,
        revision_number: row.revision,
      };
    },
  );
}
