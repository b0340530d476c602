import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { normalizeDomain } from '../../../protocol/domain.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { fetchWellKnown } from '../../documents/well-known.ts';
import { validateAdagentsText } from '../../documents/adagents-validation/validate.ts';
import { DomainQuery, Validation } from '../schemas.ts';

export function validateRoute(app: FastifyInstance, { fetcher }: AppContext): void {
  app.get<{ Querystring: Static<typeof DomainQuery> }>(
    '/api/properties/validate',
    {
      schema: {
        summary: 'Validate a domain’s adagents.json',
        description:
          'Fetches https://{domain}/.well-known/adagents.json now and checks it against the adagents.json schema. A file that cannot be fetched is reported as an error at `$`.',
        tags: ['Property Resolution'],
        querystring: DomainQuery,
        response: { 200: Validation, ...errorResponses(400) },
      },
    },
    async (request) => {
      const domain = normalizeDomain(request.query.domain);
      const live = await fetchWellKnown(fetcher, domain, 'adagents_json');
      if (!live.ok) {
        // A 200 that is not JSON is a broken file, reported with the validator's code for it, not an HTTP failure.
        const code = live.status === undefined ? 'fetch_failed' : live.status === 200 ? 'invalid_json' : 'http_status';
        const status = live.status === undefined ? {} : { status_code: live.status };
        return answer(
          { domain, url: live.url, valid: false, ...status },
          [{ path: '$', message: live.problem, code }],
          [],
        );
      }
      const { valid, errors, warnings } = validateAdagentsText(live.text);
      return answer({ domain, url: live.url, valid, status_code: 200 }, errors, warnings);
    },
  );
}

interface Found {
  path: string;
  message: string;
  code?: string;
}

/**
 * The protocol's registry client reads `errors` and `warnings` as lines of text, so they are
 * that; the findings with their codes and paths, as the registry reports them everywhere else,
 * are under `issues`.
 */
function answer<T>(head: T, errors: Found[], warnings: Found[]) {
  const lines = (found: Found[]) => found.map((f) => `${f.path}: ${f.message}`);
  const issue = ({ path, message, code }: Found) => ({ path, message, ...(code ? { code } : {}) });
  return {
    ...head,
    errors: lines(errors),
    warnings: lines(warnings),
    issues: { errors: errors.map(issue), warnings: warnings.map(issue) },
  };
}
