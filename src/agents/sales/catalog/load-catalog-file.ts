import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { CatalogError } from './catalog-error.ts';
import { parseCatalog } from './parse-catalog.ts';
import type { Catalog } from './types.ts';

const extensions = new Set(['.yaml', '.yml', '.json']);

/** Reads and validates the catalog file at `path`; every failure is a CatalogError naming it. */
export async function loadCatalogFile(path: string): Promise<Catalog> {
  if (!extensions.has(extname(path).toLowerCase())) {
    throw new CatalogError([{ source: path, message: 'a catalog file must end in .yaml, .yml or .json' }]);
  }
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message = code === 'ENOENT' ? 'no such catalog file' : `cannot read the catalog file (${code ?? String(error)})`;
    throw new CatalogError([{ source: path, message }]);
  }
  return parseCatalog(text, path);
}
