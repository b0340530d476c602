import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.ts';
import { normalizeDomain } from '../../../protocol/domain.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { HeldForReview } from '../../homographs/index.ts';
import { screenSave } from '../../homographs/index.ts';
import { proofCheck } from '../../ownership/index.ts';
import type { EntityKind, EntryRow } from '../kind.ts';
import { saveEntry } from '../save.ts';
import { editRouteOptions } from './edit-options.ts';

/** Normalize, screen for look-alikes (202 when held), then the save's transaction (see `saveEntryIn`). */
export function saveRoute<Row extends EntryRow, Fields, Body>(
  app: FastifyInstance,
  ctx: AppContext,
  kind: EntityKind<Row, Fields, Body>,
): void {
  const { wire } = kind;
  const proof = proofCheck(ctx);
  app.post<{ Body: Record<string, unknown> }>(
    `${wire.path}/save`,
    editRouteOptions(ctx, wire.tag, wire.docs.save, {
      body: wire.schemas.SaveBody,
      response: {
        200: wire.schemas.SaveResult,
        201: wire.schemas.SaveResult,
        202: HeldForReview,
        ...errorResponses(400, 401, 403, 409, 413, 415, 429),
      },
    }),
    async (request, reply) => {
      const domain = normalizeDomain(request.body[wire.domainField] as string, { field: wire.domainField, in: 'body' });
      const principal = request.principal!;
      const held = await screenSave(ctx, { kind: kind.kind, domain, payload: request.body, principal });
      if (held) return reply.code(202).send(held);
      // The route's schema (`wire.schemas.SaveBody`) has validated the body as the entity's own.
      const { row, created } = await saveEntry(ctx.db, kind, {
        domain,
        fields: wire.fieldsOf(request.body as Body),
        principal,
        proof,
      });
      return reply.code(created ? 201 : 200).send({
        success: true,
        message: created
          ? `${kind.title(domain)} created.`
          : `${kind.title(domain)} updated to revision ${row.revision}.`,
        ...wire.resultExtras(domain),
        id: row.id,
        ...(created ? {} : { revision_number: row.revision }),
      });
    },
  );
}
