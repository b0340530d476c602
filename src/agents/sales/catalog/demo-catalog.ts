import { join } from 'node:path';

/** The catalog of "Meridian Sales", selling the demo registry's publishers; served by `npm start`. */
export const demoCatalogPath = join(import.meta.dirname, 'demo-catalog.yaml');
