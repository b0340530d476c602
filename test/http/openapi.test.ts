import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { parse } from 'yaml';
import { OPENAPI_PATHS } from '../../src/http/openapi.ts';
import { eachEngine } from '../support/engines.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
}

/** The generated document must be valid OpenAPI 3.1 and describe every route the server has. */
eachEngine('OpenAPI document', (engine) => {
  let server: TestServer;
  let yamlText: string;
  let doc: OpenApiDoc;

  before(async () => {
    server = await startTestServer(engine);
    const res = await fetch(`${server.url}${OPENAPI_PATHS[0]}`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/yaml/);
    yamlText = await res.text();
    doc = parse(yamlText) as OpenApiDoc;
  });
  after(() => server.close());

  it('is served identically at both addresses', async () => {
    const other = await fetch(`${server.url}${OPENAPI_PATHS[1]}`);
    assert.equal(other.status, 200);
    assert.equal(await other.text(), yamlText);
  });

  it('validates as OpenAPI 3.1', async () => {
    assert.equal(doc.openapi, '3.1.0');
    const validator = new Validator();
    const result = await validator.validate(yamlText);
    assert.deepEqual(result.errors ?? [], []);
    assert.equal(result.valid, true);
  });

  it('lists every route the server registered, with every response it declares', () => {
    const documented = server.app.routeTable.filter((r) => r.method !== 'HEAD' && !r.schema?.hide);
    assert.ok(documented.length >= 5, 'the route table is populated');
    for (const route of documented) {
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      const operation = doc.paths[path]?.[route.method.toLowerCase()];
      assert.ok(operation, `${route.method} ${route.url} is in the document`);
      const declared = Object.keys(route.schema?.response ?? {});
      assert.ok(declared.some((s) => s.startsWith('2')), `${route.method} ${route.url} declares its success response`);
      assert.deepEqual(Object.keys(operation.responses).sort(), declared.sort(), `${route.method} ${route.url} responses`);
    }
  });

  it('documents errors with the one error body', () => {
    const errorResponse = doc.paths['/readyz']?.get?.responses['503'] as { content: Record<string, { schema: { $ref: string } }> };
    assert.equal(errorResponse.content['application/json']?.schema.$ref, '#/components/schemas/ErrorBody');
  });
});
