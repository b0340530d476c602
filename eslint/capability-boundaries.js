// Capabilities never import each other's internals: outside a capability's folder, its `routes/`,
// `sql.ts` (or `sql/`) and `service.ts` (at any depth) may not be imported; files directly under src/ (the
// composition root among them) import a capability through its index.ts alone, or config.ts its
// settings.ts (which loads none of the capability's code and so ties no cycle through `Config`). Built on ESLint's
// own `no-restricted-imports`: one block per folder of src/, whose patterns are the exact relative
// paths from that folder to every other capability.
import { readdirSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';

const src = join(import.meta.dirname, '..', 'src');

/** Registry folders that are libraries the capabilities share (no routes or jobs of their own). */
const libraries = ['registry/documents', 'registry/entries'];

/** Every capability folder, relative to src/: each registry/* folder but the libraries, and these. */
export const capabilities = [
  'auth',
  'dashboard',
  'agents',
  ...readdirSync(join(src, 'registry'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => `registry/${d.name}`)
    .filter((c) => !libraries.includes(c)),
];

const internals = '(?:.+/)?(?:routes/.+|sql\\.ts|sql/.+|service\\.ts)$';
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function patternsFor(dir) {
  const own = capabilities.find((c) => dir === c || dir.startsWith(`${c}/`));
  return capabilities
    .filter((c) => c !== own)
    .map((c) => {
      const path = posix.relative(dir, c);
      const prefix = escape(path.startsWith('..') ? path : `./${path}`);
      return dir === ''
        ? {
            regex: `^${prefix}/(?!(?:index|settings)\\.ts$)`,
            message: `Import the ${c} capability through its index.ts, its one public face.`,
          }
        : {
            regex: `^${prefix}/${internals}`,
            message: `Routes, sql.ts and service.ts are internal to the ${c} capability: import its index.ts instead.`,
          };
    });
}

/** Flat-config blocks, one per folder of src/ (tests and benches may import internals). */
export function capabilityBoundaries() {
  const dirs = readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => relative(src, join(d.parentPath, d.name)).split(sep).join('/'));
  return ['', ...dirs].map((dir) => ({
    files: [dir === '' ? 'src/*.ts' : `src/${dir}/*.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: patternsFor(dir) }] },
  }));
}
