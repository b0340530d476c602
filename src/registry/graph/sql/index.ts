/**
 * Every query of the authorization graph (migration 0013), one file per table family; bulk writes
 * go as one JSON array each. Read as one module: `import * as sql from './sql/index.ts'`.
 */

export * from './authorizations.ts';
export * from './collections.ts';
export * from './operators.ts';
export * from './properties.ts';
export * from './publishers.ts';
