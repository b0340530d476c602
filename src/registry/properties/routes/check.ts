import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { propertyCheckLimit } from '../../limits.ts';
import { CheckBody, CheckResult, maxCheckDomains } from '../schemas.ts';
import { checkPropertyList, checkReportDays } from '../service.ts';

/** `POST /api/properties/check`: a list of publisher domains against the registry (the protocol's registry client's `checkPropertyList`). */
export function checkRoute(app: FastifyInstance, { db, clock, config }: AppContext): void {
  app.post<{ Body: Static<typeof CheckBody> }>(
    '/api/properties/check',
    {
      config: { rateLimit: [propertyCheckLimit(config)] },
      schema: {
        summary: 'Check a list of publisher domains',
        description: `Normalizes up to ${maxCheckDomains.toLocaleString('en')} domains (as every endpoint does, then without a leading www. or m.) and sorts each into one bucket: \`remove\` (a duplicate once normalized, or advertising or web infrastructure such as ad servers, exchanges, trackers and CDNs), \`modify\` (normalizing changed it: use \`canonical\`), \`ok\` (the registry has an entry for it: its source, status, authorized agents and whether the publisher's own file says so) and \`assess\` (no entry). The summary is kept ${checkReportDays} days under \`report_id\`. Public; rate-limited per IP as the bulk resolves are, in its own budget.`,
        tags: ['Property Resolution'],
        body: CheckBody,
        response: { 200: CheckResult, ...errorResponses(400, 413, 415, 429) },
      },
    },
    async (request) => {
      const { report, ...check } = await checkPropertyList(db, clock, request.body.domains);
      return { ...check, report_id: report.id, expires_at: report.expires_at.toISOString() };
    },
  );
}
