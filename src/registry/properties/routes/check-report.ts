import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { ApError } from '../../../protocol/errors.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { CheckReport, CheckReportParams } from '../schemas.ts';
import { checkReportDays } from '../service.ts';
import { checkReport } from '../sql.ts';

/** `GET /api/properties/check/{reportId}`: a check's stored summary (the protocol's registry client's `getPropertyCheckReport`). */
export function checkReportRoute(app: FastifyInstance, { db, clock }: AppContext): void {
  app.get<{ Params: Static<typeof CheckReportParams> }>(
    '/api/properties/check/:reportId',
    {
      schema: {
        summary: 'Read a property check’s summary',
        description: `The summary of a check made in the last ${checkReportDays} days; 404 once it has expired.`,
        tags: ['Property Resolution'],
        params: CheckReportParams,
        response: { 200: CheckReport, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const report = await checkReport(db, request.params.reportId, clock.now());
      if (!report)
        throw new ApError(
          'not_found',
          `No property check report ${request.params.reportId}: it never existed or expired (reports are kept ${checkReportDays} days).`,
        );
      const { id, created_at, expires_at, ...summary } = report;
      return { report_id: id, summary, created_at: created_at.toISOString(), expires_at: expires_at.toISOString() };
    },
  );
}
