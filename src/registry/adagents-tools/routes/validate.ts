import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.ts';
import { normalizeDomain } from '../../../protocol/domain.ts';
import { ApError } from '../../../protocol/errors.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { describeCodes, validateAdagents } from '../../documents/adagents-validation/validate.ts';
import { requirePublicDomain } from '../../documents/public-domain.ts';
import { checkAgents } from '../agent-reachability.ts';
import { toolLimit } from '../limits.ts';
import { validateLive } from '../live-validation.ts';
import { finding, renderFindings } from '../render.ts';
import { ValidateBody, ValidationReport } from '../schemas/index.ts';

/** `POST /api/adagents/validate`: a domain's adagents.json (fetched now) or an inline one, judged. */
export function validateRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post<{ Body: ValidateBody }>(
    '/api/adagents/validate',
    {
      config: { rateLimit: toolLimit(ctx.config, 'validate') },
      schema: {
        summary: 'Validate an adagents.json',
        description:
          'Give a `domain` (its `/.well-known/adagents.json` is fetched now through the SSRF-safe client, following `authoritative_location` as the crawler does: ' +
          `at most ${ctx.config.crawler.maxHops} hops, no loops, ${ctx.config.crawler.timeoutMs} ms and ${ctx.config.crawler.maxBytes} bytes per file) or an inline \`document\`. ` +
          'The answer lists errors (the file is unusable or unsafe as published; `valid` is false) and warnings, each with a stable `code` and a JSON Pointer `path`. ' +
          'Schema errors come from schemas/3.0.6/adagents.json; the rest are checks the schema cannot make. ' +
          'A domain resolving to a private or reserved address is refused (400 `domain_not_public`), one that does not resolve too (400 `domain_unresolvable`); a file that cannot be fetched is an error finding, not a failure of the request. ' +
          `With \`check_agents\`, each agent URL is asked whether it answers. ` +
          'The report is given twice: at the top (`valid`, `errors`, `warnings`, `source`, `agents`), and as the protocol’s registry client reads it, `{success, data: {domain, found, validation, agent_cards}, timestamp}`. ' +
          `${ctx.config.limits.adagentsToolsPerMinute} requests a minute per IP (429 with retry_after).\n\n` +
          describeCodes(),
        tags: ['Validation Tools'],
        body: ValidateBody,
        response: { 200: ValidationReport, ...errorResponses(400, 415, 429) },
      },
    },
    async (request) => {
      const { domain, document, check_agents } = request.body;
      if ((domain === undefined) === (document === undefined)) {
        const message = 'give either domain or document, not both or neither';
        throw new ApError('validation_failed', `Invalid body.domain: ${message}.`, {
          details: [{ in: 'body', field: 'domain', message }],
        });
      }
      const now = ctx.clock.now();
      let findings;
      let source;
      let found = true;
      let judged: unknown;
      if (domain !== undefined) {
        const normalized = normalizeDomain(domain, { in: 'body', field: 'domain' });
        await requirePublicDomain(normalized, ctx.fetcher, { in: 'body', field: 'domain' });
        const live = await validateLive(ctx.fetcher, normalized, ctx.config.crawler, now);
        judged = live.document;
        found = live.found;
        findings = renderFindings(live);
        source = { type: 'domain' as const, domain: normalized, url: live.url, chain: live.chain };
      } else {
        judged = document;
        findings = renderFindings(validateAdagents(document, { now }));
        source = { type: 'document' as const, domain: null, url: null, chain: [] };
      }
      const reach = check_agents ? await checkAgents(ctx.fetcher, judged) : undefined;
      if (reach) findings = { ...findings, warnings: [...findings.warnings, ...reach.warnings.map(finding)] };
      return {
        ...findings,
        source,
        ...(reach ? { agents: reach.agents } : {}),
        success: true,
        data: {
          domain: source.domain,
          found,
          validation: { ...findings, url: source.url, chain: source.chain },
          ...(reach ? { agent_cards: reach.agents } : {}),
        },
        timestamp: now.toISOString(),
      };
    },
  );
}
