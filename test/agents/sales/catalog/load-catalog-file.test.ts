import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CatalogError, demoCatalogPath, loadCatalogFile } from '../../../../src/agents/sales/catalog/index.ts';

describe('loadCatalogFile', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ap-catalog-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('names a missing file', async () => {
    const path = join(dir, 'absent.yaml');
    await assert.rejects(
      loadCatalogFile(path),
      (error) => error instanceof CatalogError && error.message === `${path}: no such catalog file`,
    );
  });

  it('reads a JSON catalog, naming the file in its errors', async () => {
    const path = join(dir, 'catalog.json');
    await writeFile(path, '{\n  "products": [\n    { "product_id": "one" }\n  ]\n}\n');
    await assert.rejects(
      loadCatalogFile(path),
      (error) =>
        error instanceof CatalogError && error.message.startsWith(`${path}:3:5: products[0].name: is required`),
    );
  });

  it('refuses a file that is neither YAML nor JSON by its name', async () => {
    const path = join(dir, 'catalog.txt');
    await writeFile(path, 'products: []\n');
    await assert.rejects(
      loadCatalogFile(path),
      (error) =>
        error instanceof CatalogError && error.message === `${path}: a catalog file must end in .yaml, .yml or .json`,
    );
  });

  it('reads the demo catalog, named by its path', async () => {
    const catalog = await loadCatalogFile(demoCatalogPath);
    assert.equal(catalog.source, demoCatalogPath);
    assert.ok(catalog.products.length > 0);
  });
});
