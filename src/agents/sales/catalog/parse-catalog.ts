import { LineCounter, parseDocument, visit, type Document } from 'yaml';
import type { PathSegment } from '../../../protocol/json-path.ts';
import { validateSchema } from '../../../protocol/schemas.ts';
import { deepFreeze, withAgentUrlsUnder } from './agent-urls.ts';
import { CatalogError, type CatalogProblem } from './catalog-error.ts';
import { displayPath, pathSegments } from './issue-path.ts';
import { positionAt, positionOf } from './document-positions.ts';
import type { Catalog, Product } from './types.ts';

export const PRODUCT_SCHEMA_ID = '/schemas/3.0.6/core/product.json';

/** Stands in for this deployment's origin while path-form agent_urls are checked as URIs. */
const placeholderOrigin = 'https://placeholder.invalid';

/** Enough to fix a file in one go without burying the first problem. */
const maxProblems = 20;

type Located = CatalogProblem & { offset: number };

/**
 * Reads a catalog (YAML, or JSON, which is YAML 1.2) and checks every product against
 * core/product.json plus what a schema cannot say: product ids unique, pricing_option_id unique
 * within its product, fixed and floor price not both given, at least one product.
 * Throws a CatalogError listing every problem with its line, column and path.
 */
export function parseCatalog(text: string, source: string): Catalog {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    fail(doc.errors.map((error) => ({ source, ...positionAt(lines, error.pos[0]), message: error.message })));
  }

  let value: unknown;
  try {
    value = doc.toJS();
  } catch (error) {
    // Alias bombs and aliases used before their anchor surface only here.
    fail([{ source, ...positionAt(lines, unresolvedAliasOffset(doc) ?? 0), message: error instanceof Error ? error.message : String(error) }]);
  }

  const problems: Located[] = [];
  const report = (segments: readonly PathSegment[], message: string) =>
    problems.push({ source, ...positionOf(doc, lines, segments), path: displayPath(segments), message });

  const products = productList(value, report);
  products.forEach((product, index) => checkProduct(product, ['products', index], report));
  checkUniqueIds(products, report);
  if (problems.length > 0) fail(problems);

  return deepFreeze({ source, products: products as Product[] });
}

type Report = (segments: readonly PathSegment[], message: string) => void;

function productList(value: unknown, report: Report): unknown[] {
  if (!isObject(value)) {
    report([], 'must be a mapping with a `products` list');
    return [];
  }
  for (const key of Object.keys(value)) if (key !== 'products') report([key], 'is not an allowed property here');
  const products = value['products'];
  if (products === undefined) report(['products'], 'is required');
  else if (!Array.isArray(products)) report(['products'], 'must be a list of products');
  else if (products.length === 0) report(['products'], 'must list at least one product');
  return Array.isArray(products) ? products : [];
}

function checkProduct(product: unknown, at: readonly PathSegment[], report: Report): void {
  const { errors } = validateSchema(PRODUCT_SCHEMA_ID, withAgentUrlsUnder(placeholderOrigin, product));
  for (const issue of errors) report([...at, ...(pathSegments(issue.path) ?? [])], issue.message);
  if (!isObject(product) || !Array.isArray(product['pricing_options'])) return;

  const optionIds = new Map<string, number>();
  product['pricing_options'].forEach((option: unknown, index) => {
    if (!isObject(option)) return;
    const here = [...at, 'pricing_options', index];
    const id = option['pricing_option_id'];
    if (typeof id === 'string') {
      const first = optionIds.get(id);
      if (first === undefined) optionIds.set(id, index);
      else report([...here, 'pricing_option_id'], `${JSON.stringify(id)} is already the id of pricing_options[${first}]`);
    }
    if (option['fixed_price'] !== undefined && option['floor_price'] !== undefined) {
      report([...here, 'floor_price'], 'must not be given with fixed_price (a floor is for auction pricing)');
    }
  });
}

function checkUniqueIds(products: readonly unknown[], report: Report): void {
  const seen = new Map<string, number>();
  products.forEach((product, index) => {
    const id = isObject(product) ? product['product_id'] : undefined;
    if (typeof id !== 'string') return;
    const first = seen.get(id);
    if (first === undefined) seen.set(id, index);
    else report(['products', index, 'product_id'], `${JSON.stringify(id)} is already the id of products[${first}]`);
  });
}

function fail(problems: Located[]): never {
  const ordered = [...problems].sort((a, b) => a.offset - b.offset);
  const shown = ordered.slice(0, maxProblems).map(({ offset: _offset, ...problem }) => problem);
  throw new CatalogError(shown, ordered.length - shown.length);
}

function unresolvedAliasOffset(doc: Document): number | undefined {
  let offset: number | undefined;
  visit(doc, {
    Alias(_key, alias) {
      if (alias.resolve(doc) !== undefined) return undefined;
      offset = alias.range?.[0];
      return visit.BREAK;
    },
  });
  return offset;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
