import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { SCOPE, resourcesOf } from './provider.ts';

const ResourceMetadata = Type.Object(
  {
    resource: Type.String(),
    authorization_servers: Type.Array(Type.String()),
    bearer_methods_supported: Type.Array(Type.String()),
    scopes_supported: Type.Array(Type.String()),
    resource_name: Type.String(),
    resource_documentation: Type.String(),
  },
  { $id: 'ProtectedResourceMetadata' },
);

/** RFC 9728 metadata for the REST API and the MCP endpoint: where their tokens come from. */
export function registerResourceMetadata(app: FastifyInstance, base: () => string, issuer: () => string): void {
  app.addSchema(ResourceMetadata);
  for (const [name, label] of [['api', 'ap registry REST API'], ['mcp', 'ap registry MCP endpoint']] as const) {
    app.get(
      `/.well-known/oauth-protected-resource/${name}`,
      {
        schema: {
          summary: `OAuth protected-resource metadata of the ${name === 'api' ? 'REST API' : 'MCP endpoint'} (RFC 9728)`,
          tags: ['Authentication'],
          response: { 200: Type.Ref('ProtectedResourceMetadata') },
        },
      },
      async () => ({
        resource: resourcesOf(base())[name],
        authorization_servers: [issuer()],
        bearer_methods_supported: ['header'],
        scopes_supported: [SCOPE],
        resource_name: label,
        resource_documentation: `${base()}/docs`,
      }),
    );
  }
}
