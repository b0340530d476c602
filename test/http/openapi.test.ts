import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { OPENAPI_PATHS } from '../../src/http/openapi.ts';
import { eachEngine } from '../support/engines.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const run = promisify(execFile);
const redoclyCli = join(createRequire(import.meta.url).resolve('@redocly/cli/package.json'), '..', 'bin', 'cli.js');

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
      assert.ok(
        declared.some((s) => s.startsWith('2')),
        `${route.method} ${route.url} declares its success response`,
      );
      const listed = Object.keys(operation.responses);
      for (const status of declared)
        assert.ok(listed.includes(status), `${route.method} ${route.url} lists its ${status}`);
      // What the route's config implies is added: 400 and 500 always, 401/403 for auth, 429 for limits.
      for (const status of listed.filter((s) => !declared.includes(s)))
        assert.ok(['400', '401', '403', '429', '500'].includes(status), `${route.method} ${route.url}: ${status}`);
      const config = (route as { config?: { auth?: string; rateLimit?: unknown[] } }).config ?? {};
      if (config.auth === 'required') assert.ok(listed.includes('401'), `${route.method} ${route.url} lists 401`);
      if (config.rateLimit?.length) assert.ok(listed.includes('429'), `${route.method} ${route.url} lists 429`);
    }
  });

  it('names every operation once, and says which need a credential', () => {
    const ids: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item) as Array<
        [string, { operationId?: string; security?: unknown[] }]
      >) {
        assert.ok(operation.operationId, `${method} ${path} has an operationId`);
        ids.push(operation.operationId);
        assert.ok(Array.isArray(operation.security), `${method} ${path} says whether it needs a credential`);
      }
    }
    assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
    assert.deepEqual(doc.paths['/healthz']?.get, {
      ...doc.paths['/healthz']?.get,
      operationId: 'getHealthz',
      security: [],
    });
  });

  it('includes OAuth client registration and the discovery documents', () => {
    assert.ok(doc.paths['/register']?.post, 'POST /register');
    assert.ok(doc.paths['/.well-known/oauth-authorization-server']?.get);
    assert.ok(doc.paths['/.well-known/oauth-protected-resource/api']?.get);
  });

  it('lints clean with Redocly’s recommended ruleset: 0 errors, 0 warnings, offline', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ap-openapi-'));
    try {
      const file = join(dir, 'openapi.yaml');
      await writeFile(file, yamlText);
      // No telemetry, no update check, and any socket the linter opens fails: it must never reach the network.
      const noNetwork = `data:text/javascript,${encodeURIComponent("import net from 'node:net'; net.Socket.prototype.connect = function () { throw new Error('the OpenAPI lint must not use the network'); };")}`;
      const { stdout } = await run(
        process.execPath,
        ['--import', noNetwork, redoclyCli, 'lint', '--extends', 'recommended', '--format', 'json', file],
        {
          cwd: dir,
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
        },
      ).catch((err: { stdout?: string; stderr?: string }) => ({ stdout: err.stdout ?? '', stderr: err.stderr }));
      const report = JSON.parse(stdout) as {
        totals: { errors: number; warnings: number };
        problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>;
      };
      const problems = report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
      assert.deepEqual(problems, []);
      assert.deepEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('documents errors with the one error body', () => {
    const errorResponse = doc.paths['/readyz']?.get?.responses['503'] as {
      content: Record<string, { schema: { $ref: string } }>;
    };
    assert.equal(errorResponse.content['application/json']?.schema.$ref, '#/components/schemas/ErrorBody');
  });
});
