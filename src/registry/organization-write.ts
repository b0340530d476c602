import type { FastifyContextConfig, FastifySchema } from 'fastify';
import type { RateLimitRule } from '../http/rate-limit/rules.ts';

/**
 * The options of a route by which a member organization writes to the registry (a save, an
 * enrollment, an ownership challenge): a credential is required and must act for an organization,
 * within `rateLimit` (the API's reference says so from this config, see http/openapi.ts). `schema`
 * is the route's own (its docs, tags, body and responses).
 */
export function organizationWrite(rateLimit: RateLimitRule[], schema: FastifySchema) {
  const config: FastifyContextConfig = { auth: 'required', access: 'organization', rateLimit };
  return { config, schema };
}
