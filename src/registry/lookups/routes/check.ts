import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../../clock.ts';
import { canonicalRequestAgentUrl } from '../../../protocol/agent-url.ts';
import { normalizeRequestDomain } from '../../../protocol/domain.ts';
import { ApError } from '../../../protocol/errors.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { checkAuthorization } from '../check.ts';
import type { PropertyRef } from '../index-records.ts';
import type { IndexAnswers } from '../index-answers.ts';
import type { IndexSource } from '../index-source.ts';
import { renderCheck } from '../render.ts';
import { BulkCheckBody, BulkCheckResponse, CheckQuery, maxBulkChecks } from '../schemas/index.ts';
import { answerStampedFromMemory, isoStamps } from './answer-from-memory.ts';
import { liveIndex } from './live-index.ts';
import { perImpression } from './per-impression.ts';

/** The per-impression check's path: a front that answers kept answers itself knows it by this. */
export const checkPath = '/api/registry/validate/property-authorization';

interface OneCheck {
  agent_url: string;
  identifier?: { type: string; value: string } | undefined;
  publisher_domain?: string | undefined;
  property_id?: string | undefined;
  delegation_type?: string | undefined;
}

/**
 * `GET /api/registry/validate/property-authorization`: the real-time check an ad server makes per
 * impression, answered from memory; `POST` the same for up to 1,000 checks at once.
 */
export function checkRoutes(
  app: FastifyInstance,
  follower: IndexSource,
  answers: IndexAnswers<string>,
  clock: Clock,
): void {
  const now = isoStamps(clock);
  app.get<{ Querystring: CheckQuery }>(
    checkPath,
    {
      config: perImpression,
      schema: {
        summary: 'Check an agent’s authorization for a property, in real time',
        description:
          'Both sides: the publisher’s adagents.json must authorize the agent for the property with the claimed `delegation_type`, and an operator whose brand.json lists the agent must declare the property with a matching `relationship`. Name the property by identifier (`identifier_type` + `identifier_value`) or by `publisher_domain` + `property_id`. `result` is property/authorization-result.json; a stale property or an unknown publisher answers `unknown`, never `authorized`. `authorized` (true only when `result.status` is authorized), `agent_url`, `identifier_type`, `identifier_value` (as asked) and `checked_at` are the fields the protocol’s registry client reads. Answered from an in-memory index that follows the change feed (changes are visible within a second).',
        tags: ['Lookups & Authorization'],
        querystring: CheckQuery,
        response: { 200: { $ref: 'PropertyAuthorizationCheck#' }, ...errorResponses(400, 503) },
      },
    },
    // Synchronous: the answer comes from memory, so no promise is made per check.
    // Kept serialized without the time, which each answer is stamped with as it is sent.
    (request, reply) =>
      answerStampedFromMemory(reply, follower, answers, request.url, now, (index) => {
        const q = request.query;
        const identifier =
          q.identifier_type !== undefined || q.identifier_value !== undefined
            ? { type: q.identifier_type ?? '', value: q.identifier_value ?? '' }
            : undefined;
        const check = readCheck({ ...q, identifier }, 'querystring', '');
        return answer(
          '',
          q,
          identifier,
          renderCheck(index, checkAuthorization(index, check), q.agent_url, check.agent, q.delegation_type),
        );
      }),
  );

  app.post<{ Body: BulkCheckBody }>(
    checkPath,
    {
      config: perImpression,
      schema: {
        summary: 'Check many authorizations at once',
        description: `Up to ${maxBulkChecks} checks, each as the GET takes it (\`identifier: {type, value}\` or \`publisher_domain\` + \`property_id\`); results in the same order.`,
        tags: ['Lookups & Authorization'],
        body: BulkCheckBody,
        response: { 200: BulkCheckResponse, ...errorResponses(400, 413, 415, 503) },
      },
    },
    async (request) => {
      const index = liveIndex(follower);
      const checks = request.body.checks.map((c, i) => readCheck(c, 'body', `checks.${i}.`));
      const at = now();
      return {
        results: checks.map((check, i) => {
          const asked = request.body.checks[i]!;
          return answer(
            at,
            asked,
            asked.identifier,
            renderCheck(index, checkAuthorization(index, check), asked.agent_url, check.agent, check.delegation_type),
          );
        }),
      };
    },
  );
}

/** A check's answer with the fields the protocol's registry client reads: the verdict as a boolean, and the question as asked. */
function answer<T extends string>(
  checkedAt: T,
  asked: { agent_url: string },
  identifier: { type: string; value: string } | undefined,
  rendered: ReturnType<typeof renderCheck>,
) {
  return {
    checked_at: checkedAt,
    authorized: rendered.result.status === 'authorized',
    agent_url: asked.agent_url,
    ...(identifier === undefined ? {} : { identifier_type: identifier.type, identifier_value: identifier.value }),
    ...rendered,
  };
}

/** One check's parameters, named by where they came from when one is missing or malformed. */
function readCheck(
  c: OneCheck,
  where: 'querystring' | 'body',
  prefix: string,
): { agent: string; property: PropertyRef; delegation_type: string | undefined } {
  const invalid = (field: string, message: string) =>
    new ApError('validation_failed', `Invalid ${where}.${prefix}${field}: ${message}.`, {
      details: [{ in: where, field: `${prefix}${field}`, message }],
    });
  const agent = canonicalRequestAgentUrl(c.agent_url);
  if (agent === undefined) throw invalid('agent_url', 'must be an absolute URL');
  const identifierField = where === 'querystring' ? 'identifier_type' : 'identifier';
  if (c.identifier !== undefined) {
    if (c.publisher_domain !== undefined || c.property_id !== undefined)
      throw invalid(
        identifierField,
        'name the property by identifier or by publisher_domain and property_id, not both',
      );
    if (c.identifier.type === '' || c.identifier.value === '')
      throw invalid(
        c.identifier.type === '' ? 'identifier_type' : 'identifier_value',
        'identifier_type and identifier_value go together',
      );
    return { agent, property: { identifier: c.identifier }, delegation_type: c.delegation_type };
  }
  if (c.publisher_domain === undefined || c.property_id === undefined) {
    throw invalid(
      c.publisher_domain === undefined ? 'publisher_domain' : 'property_id',
      `name the property by ${where === 'querystring' ? 'identifier_type and identifier_value' : 'identifier'}, or by publisher_domain and property_id`,
    );
  }
  const domain = normalizeRequestDomain(c.publisher_domain, { field: `${prefix}publisher_domain`, in: where });
  return {
    agent,
    property: { publisher_domain: domain, property_id: c.property_id },
    delegation_type: c.delegation_type,
  };
}
