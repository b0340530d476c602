/**
 * What the agents' catalog files share (the sales agent's products, the signals agent's
 * signals): YAML or JSON read with line numbers, problems collected at the line and column they
 * are written at, and one error listing them, so a mistake stops the start, not a buyer's call.
 */
export { CatalogError, formatProblem, type CatalogProblem } from './catalog-error.ts';
export {
  isObject,
  readCatalogDocument,
  reportRepeatedIds,
  rootList,
  type CatalogDocument,
  type Report,
} from './catalog-document.ts';
export { deepFreeze } from './deep-freeze.ts';
export { isPathForm, underBase } from './path-form.ts';
export { readCatalogFile } from './read-catalog-file.ts';
