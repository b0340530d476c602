import { readCatalogFile } from '../../catalog-files/index.ts';
import { parseCatalog } from './parse-catalog.ts';
import type { Catalog } from './types.ts';

/** Reads and validates the catalog file at `path`; every failure is a CatalogError naming it. */
export async function loadCatalogFile(path: string): Promise<Catalog> {
  return readCatalogFile(path, parseCatalog);
}
