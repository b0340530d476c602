import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../db/database.ts';
import type { Tenant } from '../task.ts';
import { publishedKeys, type KeySettings } from './store.ts';

/** Which brand.json agent type a tenant is, from the protocols it serves. */
const agentType = (tenant: Tenant): string =>
  tenant.protocols.includes('media_buy')
    ? 'sales'
    : tenant.protocols.includes('signals')
      ? 'signals'
      : tenant.protocols.includes('creative')
        ? 'creative'
        : tenant.protocols.includes('governance')
          ? 'governance'
          : 'brand';

/**
 * What a webhook receiver resolves our keys from: the JWKS, and the operator's brand.json whose
 * `agents[].jwks_uri` points at it (agent-tasks spec section 5, rule 3).
 */
export function keyRoutes(
  app: FastifyInstance,
  db: Database,
  settings: KeySettings,
  tenants: readonly Tenant[],
  base: () => string,
): void {
  app.get(
    '/.well-known/jwks.json',
    {
      schema: {
        summary: 'Public keys the agents sign webhooks and governance approvals with (RFC 7517)',
        tags: ['Agents'],
      },
    },
    async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=300').send({ keys: await publishedKeys(db, settings) }),
  );
  app.get(
    '/.well-known/brand.json',
    { schema: { summary: 'The operator’s brand.json, declaring its agents and their JWKS', tags: ['Agents'] } },
    async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=300').send({
        version: '1.0',
        agents: tenants.map((tenant) => ({
          type: agentType(tenant),
          id: tenant.name.replaceAll(/[^a-z0-9_]/g, '_'),
          url: `${base()}${tenant.path}/mcp`,
          description: tenant.description,
          jwks_uri: `${base()}/.well-known/jwks.json`,
        })),
      }),
  );
}
