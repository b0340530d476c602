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

/** The shared schema of the metadata documents; added once, before any of them is served. */
export function addResourceMetadataSchema(app: FastifyInstance): void {
  app.addSchema(ResourceMetadata);
}

/** Where RFC 9728 puts the metadata of `resource`: the well-known name inserted before its path. */
export function metadataUrlOf(resource: string): string {
  const url = new URL(resource);
  return `${url.origin}/.well-known/oauth-protected-resource${url.pathname === '/' ? '' : url.pathname}`;
}

/**
 * Serves the RFC 9728 metadata of one protected resource at its well-known path (`path`, the
 * resource's own path); `resource` is computed per request since the base URL is known only then.
 */
export function serveResourceMetadata(
  app: FastifyInstance,
  path: string,
  label: string,
  resource: () => string,
  issuer: () => string,
  docs: () => string,
): void {
  app.get(
    `/.well-known/oauth-protected-resource${path}`,
    {
      schema: {
        summary: `OAuth protected-resource metadata of the ${label} (RFC 9728)`,
        tags: ['Authentication'],
        response: { 200: Type.Ref('ProtectedResourceMetadata') },
      },
    },
    async () => ({
      resource: resource(),
      authorization_servers: [issuer()],
      bearer_methods_supported: ['header'],
      scopes_supported: [SCOPE],
      resource_name: label,
      resource_documentation: docs(),
    }),
  );
}

/** RFC 9728 metadata for the REST API and the MCP endpoint: where their tokens come from. */
export function registerResourceMetadata(app: FastifyInstance, base: () => string, issuer: () => string): void {
  for (const [name, label] of [
    ['api', 'ap registry REST API'],
    ['mcp', 'ap registry MCP endpoint'],
  ] as const) {
    serveResourceMetadata(
      app,
      `/${name}`,
      label,
      () => resourcesOf(base())[name],
      issuer,
      () => `${base()}/docs`,
    );
  }
}
