import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { ESLint } from 'eslint';

const root = join(import.meta.dirname, '..', '..');

// The project's own lint configuration, run on snippets placed (virtually) at a path in the repository.
describe('the decorator boundary lint rule', () => {
  let eslint: ESLint;
  let planted: ESLint;
  before(() => {
    eslint = new ESLint({ cwd: root });
    // As if the lookups capability decorated the app with its index, as it once did.
    const owners = { lookupIndex: ['registry/lookups'] };
    planted = new ESLint({
      cwd: root,
      overrideConfig: { rules: { 'ap/no-foreign-decorators': ['error', { owners }] } },
    });
  });
  /** The messages of linting, at `path`, a function that reads `expression`. */
  const lint = async (path: string, expression: string, linter = eslint) => {
    const code = `import type { FastifyInstance, FastifyRequest } from 'fastify';\nexport const peek = (app: FastifyInstance, instance: FastifyInstance, request: FastifyRequest) => [app, instance, request, ${expression}];\n`;
    const [result] = await linter.lintText(code, { filePath: join(root, path) });
    return result!.messages.map((m) => ({ rule: m.ruleId, message: m.message }));
  };
  const assertRefused = (messages: Array<{ rule: string | null; message: string }>, name: string, owner: string) => {
    assert.equal(messages.length, 1, JSON.stringify(messages));
    assert.equal(messages[0]!.rule, 'ap/no-foreign-decorators');
    assert.match(messages[0]!.message, new RegExp(`\`${name}\` is a decorator of ${owner}\\b`));
  };

  it("refuses a capability reading another capability's decorator, and accepts its own", async () => {
    for (const [path, expression] of [
      ['src/registry/publishers/peek.ts', 'app.lookupIndex'],
      ['src/registry/agents/search/peek.ts', 'request.server.lookupIndex'],
    ] as const)
      assertRefused(await lint(path, expression, planted), 'lookupIndex', 'src/registry/lookups');
    assert.deepEqual(await lint('src/registry/lookups/routes/peek.ts', 'app.lookupIndex', planted), []);
  });

  it("refuses a capability reading the root's decorators, however the instance is reached", async () => {
    for (const [path, expression, name] of [
      ['src/registry/stats/peek.ts', 'app.authorizationIndex', 'authorizationIndex'],
      ['src/registry/lookups/routes/peek.ts', 'request.server.feedHub', 'feedHub'],
      ['src/dashboard/peek.ts', 'instance.agentEnrollment', 'agentEnrollment'],
      ['src/agents/runtime/peek.ts', "app.getDecorator('taskWorker')", 'taskWorker'],
      ['src/registry/mcp/peek.ts', "app.hasDecorator('routeTable')", 'routeTable'],
      // Not even the capability that built the service: it is handed it as an option.
      ['src/registry/crawler/peek.ts', 'app.crawler', 'crawler'],
    ] as const)
      assertRefused(await lint(path, expression), name, 'src/app');
  });

  it('accepts the composition root, tests, benches, and what only looks like a decorator', async () => {
    for (const [path, expression] of [
      ['src/app/peek.ts', 'app.authorizationIndex'],
      ['test/registry/peek.test.ts', 'app.feedHub'],
      ['bench/peek.bench.ts', 'app.taskWorker'],
      // A setting of the same name is no decorator, nor is the framework's own `app.log`.
      ['src/registry/crawler/peek.ts', '({ config: { crawler: 1 } }).config.crawler'],
      ['src/registry/feed/peek.ts', 'app.log'],
    ] as const)
      assert.deepEqual(await lint(path, expression), [], `${path}: ${expression}`);
  });
});
