// Capabilities reach each other through their index.ts alone: outside a capability's folder,
// no other file of it may be imported. Files directly under src/ (config.ts among them) may also
// import a capability's settings.ts, which loads none of the capability's code and so ties no cycle
// through `Config`. And http/, the app-wide plumbing the capabilities build on, imports nothing of
// auth/ (which imports it). Built on ESLint's own `no-restricted-imports`: one block per folder of
// src/, whose patterns are the exact relative paths from that folder to every other capability
// (one block, since a later block's options for a rule replace an earlier one's).
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
  'mirror',
  ...readdirSync(join(src, 'registry'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => `registry/${d.name}`)
    .filter((c) => !libraries.includes(c)),
];

/** Folders below some capabilities, which may import nothing of them, not even their index.ts. */
const beneath = { http: ['auth'] };

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function patternsFor(dir) {
  const own = capabilities.find((c) => dir === c || dir.startsWith(`${c}/`));
  const layer = Object.keys(beneath).find((l) => dir === l || dir.startsWith(`${l}/`));
  return capabilities
    .filter((c) => c !== own)
    .map((c) => {
      const path = posix.relative(dir, c);
      const prefix = escape(path.startsWith('..') ? path : `./${path}`);
      if (layer && beneath[layer].includes(c)) {
        return {
          regex: `^${prefix}(?:/|$)`,
          message: `${layer}/ sits below the ${c} capability, which imports it: it imports nothing of ${c}/ and takes what it needs as a parameter.`,
        };
      }
      const open = dir === '' ? '(?:index|settings)' : 'index';
      return {
        regex: `^${prefix}/(?!${open}\\.ts$)`,
        message: `Import the ${c} capability through its index.ts, its one public face.`,
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
