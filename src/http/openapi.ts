import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import pkg from '../../package.json' with { type: 'json' };
import { ErrorBody, errorResponses } from '../protocol/wire/error.ts';
import './route-config.ts';
import './rate-limit/rules.ts';

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
        license: { name: pkg.license, identifier: pkg.license },
      },
      // Without PUBLIC_URL the document is relative to where it is served, which is this server.
      servers: [publicUrl ? { url: publicUrl } : { url: '/', description: 'This server' }],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An organization API key (`ap_...`, from `/dashboard/api-keys` or `ap keys create`) or an OAuth 2.1 access token (authorization code with PKCE S256 at `/authorize` and `/token`; clients register at `/register`; discovery at `/.well-known/oauth-authorization-server` and `/.well-known/oauth-protected-resource/api`, or `/mcp` for the MCP endpoint; one token works for both). A user acts for their first organization or the one named in the `AP-Organization` header.',
          },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transform: ({ schema, url, route }) => ({ schema: describeRoute(schema, route), url }),
    transformObject: (documentObject) =>
      tidy((documentObject as unknown as { openapiObject: OpenApiObject }).openapiObject) as never,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });

  for (const url of OPENAPI_PATHS) {
    app.get(
      url,
      {
        schema: {
          summary: 'This OpenAPI document',
          tags: ['operations'],
          response: {
            200: {
              description: 'OpenAPI 3.1 document (YAML).',
              content: { 'application/yaml': { schema: { type: 'string' } } },
            },
          },
        },
      },
      async (_request, reply) => reply.type('application/yaml; charset=utf-8').send(app.swagger({ yaml: true })),
    );
  }
}

/**
 * What a route declares besides its schema, said in the document: who may call it (`security: []`
 * for public routes, the bearer scheme for `auth: required`, either for `optional`), and the
 * catalogue errors it can answer. Every route can answer 400 (a malformed URL, a NUL character,
 * a schema mismatch) and 500; 401 and 403 follow its `auth` and `access`, 429 its rate limits.
 * Returns a copy: the route's own schema also drives validation.
 */
function describeRoute(schema: FastifySchema | undefined, route: RouteOptions): FastifySchema {
  const config = route.config ?? {};
  const statuses = [400];
  if (config.auth === 'required') statuses.push(401);
  if (config.access) statuses.push(403);
  if (config.rateLimit?.length) statuses.push(429);
  const own = (schema ?? {}) as FastifySchema & { security?: Security };
  const security: Security =
    config.auth === 'required' ? [{ bearer: [] }] : config.auth === 'optional' ? [{}, { bearer: [] }] : [];
  return {
    ...own,
    security: own.security ?? security,
    response: { ...errorResponses(...statuses), ...(own.response as object | undefined) },
  } as FastifySchema;
}

type Security = Array<Record<string, string[]>>;

interface OpenApiObject {
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown> };
}

/**
 * The whole document, last: every operation named, and shared schemas no operation refers to
 * (registered for validation, but inlined where a route uses them) left out.
 */
function tidy(doc: OpenApiObject): OpenApiObject {
  nameOperations(doc);
  const schemas = doc.components?.schemas;
  if (!schemas) return doc;
  const text = (value: unknown) => JSON.stringify(value);
  const used = new Set<string>();
  // From the paths outwards, through the schemas that refer to others, until nothing new is found.
  let frontier = [text(doc.paths)];
  while (frontier.length) {
    const next: string[] = [];
    for (const name of Object.keys(schemas)) {
      if (!used.has(name) && frontier.some((t) => t.includes(`"#/components/schemas/${name}"`))) {
        used.add(name);
        next.push(text(schemas[name]));
      }
    }
    frontier = next;
  }
  doc.components!.schemas = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
  return doc;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Every operation gets a stable `operationId` from its method and path: `GET /api/brands/{id}` is `getApiBrandsById`. */
function nameOperations(doc: OpenApiObject): OpenApiObject {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method) || !operation || typeof operation !== 'object') continue;
      const op = operation as { operationId?: string };
      op.operationId ??= method + operationName(path);
    }
  }
  return doc;
}

function operationName(path: string): string {
  const words = path.split(/[^A-Za-z0-9{}]+/).filter(Boolean);
  return words.map((w) => (w.startsWith('{') ? `By${capital(w.slice(1, -1))}` : capital(w))).join('');
}

function capital(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
