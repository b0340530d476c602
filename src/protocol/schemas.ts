/**
 * The protocol's published JSON Schemas (draft-07), vendored under `schemas/` by
 * `scripts/sync-schemas.sh`, behind one Ajv instance. Files are read only when a schema that
 * needs them is first used, and compiled validators are kept.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve, sep } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import {
  explainErrors,
  isNode,
  type Combinator,
  type SchemaIssue,
  type SchemaNode,
  type VariantNarrowing,
} from './schema-issues.ts';
import { pointerValue } from './json-path.ts';
import { pickVariant, unmatchedDiscriminator } from './schema-variants.ts';

export type { SchemaIssue } from './schema-issues.ts';

export const ADAGENTS_SCHEMA_ID = '/schemas/3.0.6/adagents.json';
export const BRAND_SCHEMA_ID = '/schemas/3.0.6/brand.json';
export const REGISTRY_EVENT_SCHEMA_ID = '/schemas/3.1.19/core/registry-event.json';
export const REGISTRY_FEED_RESPONSE_SCHEMA_ID = '/schemas/3.1.19/core/registry-feed-response.json';

/** Where the vendored copies live; a schema's `$id` is its path below this folder's parent. */
export const schemasDir = resolve(import.meta.dirname, '../../schemas');

// 3.1.19 is published here only as the two change-feed schemas, which reference siblings such as
// core/property.json; those are taken from this release, the newest one vendored in full.
const fallbackVersion = '3.0.6';

export interface SchemaValidation {
  valid: boolean;
  errors: SchemaIssue[];
}

/** Validates `data` against the vendored schema whose `$id` is `id`; throws for an unknown id. */
export function validateSchema(id: string, data: unknown): SchemaValidation {
  return registry().validate(id, data);
}

/**
 * Compiles the published request and response schemas of the named tasks now (`get_products`:
 * every `get-products-request.json` and `-response.json` of the release), as a server starts:
 * compiling one holds the event loop for tens to hundreds of milliseconds (the test controller's
 * request, which names every async answer, about half a second), which a task's first call
 * would otherwise pay in front of every request in flight.
 */
export function compileTaskSchemas(tasks: readonly string[], version = fallbackVersion): void {
  const wanted = new Set(
    tasks.flatMap((task) => ['request', 'response'].map((kind) => `${task.replaceAll('_', '-')}-${kind}.json`)),
  );
  for (const file of readdirSync(join(schemasDir, version), { recursive: true, encoding: 'utf8' })) {
    if (wanted.has(basename(file))) registry().validate(`/schemas/${version}/${file.split(sep).join('/')}`, undefined);
  }
}

/** Which variant of a top-level oneOf a document means, judged from the properties it has. */
type VariantHint = (data: SchemaNode) => ((variant: SchemaNode) => boolean) | undefined;

const requires =
  (...names: string[]) =>
  (variant: SchemaNode) =>
    names.every((name) => listOf(variant['required']).includes(name));
const declares = (name: string) => (variant: SchemaNode) =>
  isNode(variant['properties']) && Object.hasOwn(variant['properties'], name);

const variantHints: Record<string, VariantHint> = {
  [ADAGENTS_SCHEMA_ID]: (data) => {
    // Most files are inline, so a file that shows neither intent is judged as one.
    if (Object.hasOwn(data, 'authoritative_location') && !Object.hasOwn(data, 'authorized_agents')) {
      return requires('authoritative_location');
    }
    return requires('authorized_agents');
  },
  [BRAND_SCHEMA_ID]: (data) => {
    if (Object.hasOwn(data, 'brands') || isNode(data['house'])) return requires('house', 'brands');
    if (typeof data['house'] === 'string')
      return (variant) => requires('house')(variant) && !requires('brands')(variant);
    if (Object.hasOwn(data, 'agents') || Object.hasOwn(data, 'brand_agent')) return declares('brand_agent');
    if (Object.hasOwn(data, 'authoritative_location')) return requires('authoritative_location');
    return undefined;
  },
};

let instance: SchemaRegistry | undefined;

function registry(): SchemaRegistry {
  instance ??= new SchemaRegistry();
  return instance;
}

class SchemaRegistry implements VariantNarrowing {
  readonly #ajv: Ajv;
  /** Root schema object of every file read so far, by `$id`. */
  readonly #files = new Map<string, SchemaNode>();
  /** The `$id` of the file each schema object came from, to resolve its `#/...` references. */
  readonly #fileOf = new WeakMap<object, string>();
  readonly #hints = new WeakMap<object, VariantHint>();
  readonly #narrowed = new WeakMap<object, Map<string, ValidateFunction>>();

  constructor() {
    // strict: false because the published schemas carry keywords Ajv does not know
    // (discriminator, x-entity, ...). allErrors is affordable because fetched documents are
    // size-capped; verbose gives the schema objects that the error explanation needs. Referenced
    // schemas are compiled once each, not inlined into every schema naming them: the published
    // answers share large parts (core/async-response-data.json), and inlining compiled them again
    // in each (the test controller's request took twice as long).
    this.#ajv = new Ajv({ strict: false, allErrors: true, verbose: true, inlineRefs: false });
    addFormats.default(this.#ajv);
  }

  validate(id: string, data: unknown): SchemaValidation {
    const validator = this.#validator(id);
    if (validator(data)) return { valid: true, errors: [] };
    const errors = [...(validator.errors ?? [])];
    const issues = explainErrors(errors, data, this);
    return {
      valid: false,
      errors: issues.length > 0 ? issues : [{ path: '$', pointer: '', message: 'does not match the schema' }],
    };
  }

  choose(parent: SchemaNode, keyword: Combinator, data: unknown): number | { name: string; allowed: unknown[] } {
    const variants = listOf(parent[keyword]);
    const deref = (schema: unknown) => this.#deref(schema, parent);
    const intended = keyword === 'oneOf' && isNode(data) ? this.#hints.get(parent)?.(data) : undefined;
    if (intended) {
      const index = variants.findIndex((variant) => {
        const schema = deref(variant);
        return schema !== undefined && intended(schema);
      });
      if (index >= 0) return index;
    }
    return unmatchedDiscriminator(variants, data, deref) ?? pickVariant(variants, data, deref);
  }

  errorsAgainst(parent: SchemaNode, keyword: Combinator, index: number | null, data: unknown): ErrorObject[] {
    const validator = this.#narrowedValidator(parent, keyword, index);
    return validator(data) ? [] : [...(validator.errors ?? [])];
  }

  #validator(id: string): ValidateFunction {
    this.#load(id);
    const validator = this.#ajv.getSchema(id);
    if (!validator) throw new Error(`no schema with $id ${id}`);
    return validator;
  }

  /** Reads the file for `id` and, first, every file it references, so Ajv can compile it. */
  #load(id: string): SchemaNode {
    const known = this.#files.get(id);
    if (known) return known;
    const schema = readSchemaFile(id);
    this.#files.set(id, schema);
    const hint = variantHints[id];
    if (hint) this.#hints.set(schema, hint);
    const references = new Set<string>();
    visitSchema(schema, (node) => {
      this.#fileOf.set(node, id);
      const ref = node['$ref'];
      if (typeof ref === 'string' && ref.startsWith('/')) references.add(ref.split('#')[0]!);
    });
    this.#ajv.addSchema(schema);
    for (const reference of references) this.#load(reference);
    return schema;
  }

  /**
   * A validator for `parent` with one variant of its oneOf/anyOf in place of the whole list.
   * Built as a copy, so `#/...` references are made absolute to still reach the original file.
   */
  #narrowedValidator(parent: SchemaNode, keyword: Combinator, index: number | null): ValidateFunction {
    let byVariant = this.#narrowed.get(parent);
    if (!byVariant) {
      byVariant = new Map();
      this.#narrowed.set(parent, byVariant);
    }
    const key = `${keyword}:${index ?? 'none'}`;
    const cached = byVariant.get(key);
    if (cached) return cached;

    const file = this.#fileOf.get(parent);
    const copy: SchemaNode = {};
    for (const [name, value] of Object.entries(parent)) {
      if (name === keyword || name === '$id' || name === '$schema' || name === 'definitions' || name === '$defs')
        continue;
      copy[name] = rebase(value, file);
    }
    if (index !== null) copy['allOf'] = [...listOf(copy['allOf']), rebase(listOf(parent[keyword])[index], file)];
    const validator = this.#ajv.compile(copy);
    byVariant.set(key, validator);
    return validator;
  }

  #deref(schema: unknown, context: object): SchemaNode | undefined {
    if (!isNode(schema)) return undefined;
    const ref = schema['$ref'];
    if (typeof ref !== 'string') return schema;
    const [file, pointer = ''] = ref.split('#');
    const rootId = file ? file : this.#fileOf.get(context);
    const root = rootId === undefined ? undefined : this.#files.get(rootId);
    const target = root === undefined ? undefined : resolvePointer(root, pointer);
    return isNode(target) ? target : undefined;
  }
}

/**
 * Defects of published schemas that no document could satisfy, corrected as their files are read
 * (the vendored copies stay exact), by path within a release.
 */
const errata: Record<string, (schema: SchemaNode) => void> = {
  // A format's supported_macros items are oneOf [the universal-macro enum, any string]: a standard
  // macro matches both, so no format naming one was valid. Upstream made it anyOf (adcp#5099).
  'core/format.json': (schema) => {
    const properties = schema['properties'];
    const macros = isNode(properties) ? properties['supported_macros'] : undefined;
    const items = isNode(macros) ? macros['items'] : undefined;
    if (!isNode(items) || !Array.isArray(items['oneOf'])) return;
    items['anyOf'] = items['oneOf'];
    delete items['oneOf'];
  },
};

/**
 * The same schemas, rewritten to validate faster with the same verdicts, by path within a release.
 */
const rewrites: Record<string, (schema: SchemaNode) => void> = {
  // The asset union is a oneOf of fourteen asset schemas, each requiring its own asset_type
  // constant, so exactly the one an asset names can match: dispatching on asset_type gives the
  // same verdicts while checking one schema per asset instead of fourteen (a preview batch's
  // request check went from ~12 to ~2 µs per manifest). Errors then come from that one schema.
  'core/assets/asset-union.json': (schema) => {
    const variants = schema['oneOf'];
    if (!Array.isArray(variants)) return;
    const types = variants.map(
      (variant) => /\/([a-z]+)-asset\.json$/.exec(String((variant as { $ref?: unknown }).$ref))?.[1],
    );
    if (types.some((type) => type === undefined)) return;
    schema['required'] = ['asset_type'];
    schema['properties'] = { asset_type: { enum: types } };
    schema['allOf'] = variants.map((variant, i) => ({
      if: { required: ['asset_type'], properties: { asset_type: { const: types[i] } } },
      then: variant,
    }));
    delete schema['oneOf'];
  },
};

function readSchemaFile(id: string): SchemaNode {
  const match =
    /^\/schemas\/([0-9]+\.[0-9]+\.[0-9]+)\/((?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*\.json)$/.exec(
      id,
    );
  if (!match) throw new Error(`no schema with $id ${id}`);
  const [, version, path] = match as unknown as [string, string, string];
  let file = join(schemasDir, version, path);
  if (!existsSync(file)) file = join(schemasDir, fallbackVersion, path);
  if (!existsSync(file)) throw new Error(`no schema with $id ${id}`);
  const schema: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!isNode(schema)) throw new Error(`${file} is not a JSON Schema object`);
  errata[path]?.(schema);
  rewrites[path]?.(schema);
  // A file taken from the fallback release is registered under the id that was asked for.
  return { ...schema, $id: id };
}

/** Calls `visit` on every subschema object, skipping values that are data rather than schema. */
function visitSchema(node: unknown, visit: (node: SchemaNode) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) visitSchema(item, visit);
    return;
  }
  if (!isNode(node)) return;
  visit(node);
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'examples' && key !== 'const' && key !== 'enum' && key !== 'default') visitSchema(value, visit);
  }
}

/** A deep copy in which `#/...` references point into `file` explicitly. */
function rebase(node: unknown, file: string | undefined): unknown {
  if (Array.isArray(node)) return node.map((item) => rebase(item, file));
  if (!isNode(node)) return node;
  const copy: SchemaNode = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#') && file !== undefined)
      copy[key] = file + value;
    else if (key === 'examples' || key === 'const' || key === 'enum' || key === 'default') copy[key] = value;
    else copy[key] = rebase(value, file);
  }
  return copy;
}

/** A `$ref`'s fragment is a JSON Pointer written into a URI, so percent-escaped first (RFC 6901 section 6). */
function resolvePointer(root: unknown, fragment: string): unknown {
  return pointerValue(root, decodeURIComponent(fragment));
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
