import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { findImportCycles } from '../../scripts/import-cycles.ts';

const script = join(import.meta.dirname, '..', '..', 'scripts', 'import-cycles.ts');

/** A folder of modules: path → source. */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'ap-cycles-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('the import cycle check', () => {
  it('finds a cycle, type-only imports and re-exports included, as a path of files', () => {
    const dir = tree({
      'config.ts':
        "import type { CrawlerConfig } from './registry/crawler/crawler.ts';\nexport type Config = { crawler: CrawlerConfig };\n",
      'registry/crawler/crawler.ts':
        "export { apply } from '../graph/apply.ts';\nexport type CrawlerConfig = { worker: boolean };\n",
      'registry/graph/apply.ts': "import { loadConfig } from '../../context.ts';\nexport const apply = loadConfig;\n",
      'context.ts': "import type { Config } from './config.ts';\nexport const loadConfig = (c: Config) => c;\n",
      'leaf.ts': "import { apply } from './registry/graph/apply.ts';\nexport const x = apply;\n",
    });
    assert.deepEqual(findImportCycles(dir), [
      ['config.ts', 'registry/crawler/crawler.ts', 'registry/graph/apply.ts', 'context.ts', 'config.ts'],
    ]);
  });

  it('finds a module importing itself, and nothing in a tree without cycles', () => {
    assert.deepEqual(findImportCycles(tree({ 'self.ts': "export * from './self.ts';\n" })), [['self.ts', 'self.ts']]);
    assert.deepEqual(
      findImportCycles(tree({ 'a.ts': "import './b.ts';\n", 'b.ts': "import 'node:fs';\nexport {};\n" })),
      [],
    );
  });

  it('fails the lint run on a cycle, naming it, and passes on src/', async () => {
    const dir = tree({ 'a.ts': "import './b.ts';\n", 'b.ts': "import './a.ts';\n" });
    const run = promisify(execFile)(process.execPath, [script, dir]);
    await assert.rejects(
      run,
      (err: { code: number; stderr: string }) =>
        err.code === 1 && err.stderr.includes('import cycle: a.ts -> b.ts -> a.ts'),
    );
    await promisify(execFile)(process.execPath, [script]);
  });
});
