import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { CatalogError } from './catalog-error.ts';

const extensions = new Set(['.yaml', '.yml', '.json']);

/**
 * Reads the catalog file at `path` and hands its text to `parse` (which names `path` as the
 * source of its problems); a wrong extension or an unreadable file is a CatalogError naming it.
 */
export async function readCatalogFile<T>(path: string, parse: (text: string, source: string) => T): Promise<T> {
  if (!extensions.has(extname(path).toLowerCase())) {
    throw new CatalogError([{ source: path, message: 'a catalog file must end in .yaml, .yml or .json' }]);
  }
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message =
      code === 'ENOENT' ? 'no such catalog file' : `cannot read the catalog file (${code ?? String(error)})`;
    throw new CatalogError([{ source: path, message }]);
  }
  return parse(text, path);
}
