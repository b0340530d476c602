import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import pkg from '../../package.json' with { type: 'json' };
import { ErrorBody } from '../protocol/wire/error.ts';

export const OPENAPI_PATHS = ['/openapi/registry.yaml', '/.well-known/openapi.yaml'] as const;

/**
 * The OpenAPI 3.1 document is generated from the route schemas, never written by hand. Register
 * this before any route so every route is seen; shared schemas become named components.
 */
export async function registerOpenApi(app: FastifyInstance, publicUrl: string | undefined): Promise<void> {
  app.addSchema(ErrorBody);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'ap registry API',
        version: pkg.version,
        description:
          'Resolves brands and publishers, lists and searches agents, serves the change feed and answers real-time authorization checks.',
      },
      servers: publicUrl ? [{ url: publicUrl }] : [],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An organization API key (`ap_...`, from `/dashboard/api-keys` or `ap keys create`) or an OAuth 2.1 access token (authorization code with PKCE S256 at `/authorize` and `/token`; clients register at `/register`; discovery at `/.well-known/oauth-authorization-server` and `/.well-known/oauth-protected-resource/api`). A user acts for their first organization or the one named in the `AP-Organization` header.',
          },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });

  for (const url of OPENAPI_PATHS) {
    app.get(
      url,
      {
        schema: {
          summary: 'This OpenAPI document',
          tags: ['operations'],
          response: { 200: { description: 'OpenAPI 3.1 document (YAML).', content: { 'application/yaml': { schema: { type: 'string' } } } } },
        },
      },
      async (_request, reply) => reply.type('application/yaml; charset=utf-8').send(app.swagger({ yaml: true })),
    );
  }
}
