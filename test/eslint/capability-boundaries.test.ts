import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { ESLint } from 'eslint';

const root = join(import.meta.dirname, '..', '..');

// The project's own lint configuration, run on snippets placed (virtually) at a path in the repository.
describe('the capability boundary lint rule', () => {
  let eslint: ESLint;
  before(() => {
    eslint = new ESLint({ cwd: root });
  });
  const lint = async (path: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: join(root, path) });
    return result!.messages.map((m) => ({ rule: m.ruleId, message: m.message }));
  };
  const importing = (specifier: string) => `import * as other from '${specifier}';\nexport const used = other;\n`;
  const refused = (messages: Array<{ rule: string | null; message: string }>, capability: string) =>
    messages.length === 1 && messages[0]!.rule === 'no-restricted-imports' && messages[0]!.message.includes(capability);

  it("refuses another capability's sql.ts, service.ts and routes, at any depth", async () => {
    assert.ok(refused(await lint('src/registry/feed/peek.ts', importing('../brands/sql.ts')), 'registry/brands'));
    assert.ok(
      refused(
        await lint('src/registry/feed/routes/peek.ts', importing('../../ownership/service.ts')),
        'registry/ownership',
      ),
    );
    assert.ok(refused(await lint('src/dashboard/routes/peek.ts', importing('../../auth/accounts/sql.ts')), 'auth'));
    assert.ok(
      refused(
        await lint('src/admin/peek.ts', importing('../registry/homographs/routes/list-reviews.ts')),
        'registry/homographs',
      ),
    );
    assert.ok(
      refused(await lint('src/agents/runtime/peek.ts', importing('../../registry/crawler/sql.ts')), 'registry/crawler'),
    );
  });

  it('refuses any other file of another capability: only its index.ts is public', async () => {
    assert.ok(refused(await lint('src/registry/feed/peek.ts', importing('../brands/identity.ts')), 'registry/brands'));
    assert.ok(refused(await lint('src/agents/runtime/peek.ts', importing('../../auth/principal.ts')), 'auth'));
    assert.ok(refused(await lint('src/registry/properties/peek.ts', importing('../feed/append.ts')), 'registry/feed'));
    assert.ok(refused(await lint('src/admin/peek.ts', importing('../agents/runtime/keys/store.ts')), 'agents'));
  });

  it("accepts another capability's index.ts, and a capability's own internals", async () => {
    assert.deepEqual(await lint('src/registry/feed/peek.ts', importing('../brands/index.ts')), []);
    assert.deepEqual(await lint('src/dashboard/routes/peek.ts', importing('../../auth/index.ts')), []);
    assert.deepEqual(await lint('src/registry/brands/routes/peek.ts', importing('../sql.ts')), []);
    assert.deepEqual(await lint('src/auth/peek.ts', importing('./accounts/service.ts')), []);
    assert.deepEqual(await lint('src/registry/feed/routes/peek.ts', importing('../append.ts')), []);
    assert.deepEqual(await lint('src/agents/runtime/peek.ts', importing('../sales/index.ts')), []);
  });

  it('lets the composition root (src/app/) and files directly under src/ import a capability through its index.ts only', async () => {
    assert.ok(refused(await lint('src/app/peek.ts', importing('../registry/graph/snapshot.ts')), 'registry/graph'));
    assert.ok(refused(await lint('src/app/peek.ts', importing('../agents/runtime/index.ts')), 'agents'));
    assert.deepEqual(await lint('src/app/peek.ts', importing('../registry/graph/index.ts')), []);
    assert.ok(refused(await lint('src/context.ts', importing('./registry/graph/snapshot.ts')), 'registry/graph'));
    assert.deepEqual(await lint('src/context.ts', importing('./registry/graph/index.ts')), []);
  });

  it("lets only files directly under src/ (config.ts assembling them) import a capability's settings.ts", async () => {
    assert.deepEqual(await lint('src/config.ts', importing('./registry/feed/settings.ts')), []);
    assert.deepEqual(await lint('src/config.ts', importing('./auth/settings.ts')), []);
    assert.ok(refused(await lint('src/registry/feed/peek.ts', importing('../brands/settings.ts')), 'registry/brands'));
    assert.ok(refused(await lint('src/agents/peek.ts', importing('../auth/settings.ts')), 'auth'));
  });

  it('keeps http/, which auth/ builds on, from importing anything of auth/, its index.ts included', async () => {
    assert.ok(refused(await lint('src/http/peek.ts', importing('../auth/index.ts')), 'auth'));
    assert.ok(refused(await lint('src/http/rate-limit/peek.ts', importing('../../auth/principal.ts')), 'auth'));
    assert.ok(refused(await lint('src/http/mcp/peek.ts', importing('../../auth/limits.ts')), 'auth'));
    assert.deepEqual(await lint('src/http/peek.ts', importing('../protocol/errors.ts')), []);
  });

  it('lets tests and benches import internals, to test units', async () => {
    assert.deepEqual(await lint('test/registry/peek.test.ts', importing('../../src/registry/brands/sql.ts')), []);
    assert.deepEqual(await lint('bench/peek.bench.ts', importing('../src/registry/crawler/sql.ts')), []);
  });
});
