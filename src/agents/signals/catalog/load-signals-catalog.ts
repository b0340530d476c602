import { readCatalogFile } from '../../catalog-files/index.ts';
import { parseSignalsCatalog } from './parse-signals-catalog.ts';
import type { SignalsCatalog } from './types.ts';

/** Reads and validates the signals catalog file at `path`; every failure is a CatalogError naming it. */
export async function loadSignalsCatalog(path: string): Promise<SignalsCatalog> {
  return readCatalogFile(path, parseSignalsCatalog);
}
