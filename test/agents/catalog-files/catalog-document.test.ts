import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  CatalogError,
  readCatalogDocument,
  readCatalogFile,
  reportRepeatedIds,
  rootList,
} from '../../../src/agents/catalog-files/index.ts';

/** The message of the CatalogError `run` throws, failing the test if it throws none. */
function messageOf(run: () => void): string {
  try {
    run();
  } catch (error) {
    if (error instanceof CatalogError) return error.message;
    throw error;
  }
  assert.fail('no CatalogError was thrown');
}

/** Reads `text` as a catalog of `items`, checks ids, and throws what was found. */
function check(text: string): void {
  const document = readCatalogDocument(text, 'list.yaml');
  const items = rootList(document, 'items', 'item');
  reportRepeatedIds(document.report, items, ['items'], 'id');
  document.throwIfProblems();
}

describe('readCatalogDocument', () => {
  it('returns the data of a good document and throws nothing when no problem was recorded', () => {
    const document = readCatalogDocument('items:\n  - id: a\n  - id: b\n', 'list.yaml');
    assert.deepEqual(document.value, { items: [{ id: 'a' }, { id: 'b' }] });
    document.throwIfProblems();
  });

  it('locates a problem at the line and column of the value its path names', () => {
    const document = readCatalogDocument('items:\n  - id: a\n    size: large\n', 'list.yaml');
    document.reportSchemaIssues(['items', 0], [{ path: '$.size', message: 'must be number' }]);
    assert.equal(
      messageOf(() => document.throwIfProblems()),
      'list.yaml:3:5: items[0].size: must be number',
    );
  });

  it('refuses a document that is not the expected list, or has other keys beside it', () => {
    assert.equal(
      messageOf(() => check('- id: a\n')),
      'list.yaml:1:1: $: must be a mapping with a `items` list',
    );
    assert.equal(
      messageOf(() => check('items: []\nextra: 1\n')),
      [
        'list.yaml:1:1: items: must list at least one item',
        'list.yaml:2:1: extra: is not an allowed property here',
      ].join('\n'),
    );
    assert.equal(
      messageOf(() => check('items: 3\n')),
      'list.yaml:1:1: items: must be a list of items',
    );
  });

  it('reads JSON as JSON, and still locates its problems at their line and column', () => {
    const text = '{\n  "items": [\n    {"id": "a"},\n    {"id": "b", "size": "large"}\n  ]\n}\n';
    const document = readCatalogDocument(text, 'list.json');
    assert.deepEqual(document.value, JSON.parse(text));
    document.reportSchemaIssues(['items', 1], [{ path: '$.size', message: 'must be number' }]);
    assert.equal(
      messageOf(() => document.throwIfProblems()),
      'list.json:4:17: items[1].size: must be number',
    );
    assert.match(
      messageOf(() => readCatalogDocument('{"items": [\n  {"id": "a"\n]}\n', 'list.json')),
      /^list\.json:3:1: /,
      'bad JSON is located by the YAML parser',
    );
  });

  it('names the first item whose id a later one repeats', () => {
    assert.equal(
      messageOf(() => check('items:\n  - id: a\n  - id: b\n  - id: a\n')),
      'list.yaml:4:5: items[2].id: "a" is already the id of items[0]',
    );
  });
});

describe('readCatalogFile', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ap-catalog-files-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('hands the text and the path to the parser', async () => {
    const path = join(dir, 'list.yml');
    await writeFile(path, 'items: []\n');
    assert.deepEqual(await readCatalogFile(path, (text, source) => ({ text, source })), {
      text: 'items: []\n',
      source: path,
    });
  });

  it('refuses a missing file and a file of another kind, naming it', async () => {
    const parse = () => assert.fail('parsed');
    await assert.rejects(readCatalogFile(join(dir, 'absent.json'), parse), {
      message: `${join(dir, 'absent.json')}: no such catalog file`,
    });
    await assert.rejects(readCatalogFile(join(dir, 'list.txt'), parse), {
      message: `${join(dir, 'list.txt')}: a catalog file must end in .yaml, .yml or .json`,
    });
  });
});
