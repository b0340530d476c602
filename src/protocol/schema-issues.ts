import type { ErrorObject } from 'ajv';
import { jsonPath, jsonPointer, pointerChild, pointerSegments } from './json-path.ts';

/** One reason a document fails its schema, at a JSON path such as `$.authorized_agents[0].url`. */
export interface SchemaIssue {
  path: string;
  /** The same place as a JSON Pointer (RFC 6901), e.g. `/authorized_agents/0/url`. */
  pointer: string;
  message: string;
}

export type Combinator = 'oneOf' | 'anyOf';
export type SchemaNode = Record<string, unknown>;

/** What turning Ajv's errors into issues needs from the schema registry. */
export interface VariantNarrowing {
  /**
   * The index in `parent[keyword]` of the variant the data evidently means, or the discriminator
   * property whose value names no variant at all.
   */
  choose(parent: SchemaNode, keyword: Combinator, data: unknown): number | { name: string; allowed: unknown[] };
  /**
   * Errors of `data` against `parent` with `parent[keyword]` replaced by the variant at `index`
   * (or left out when null); empty when valid.
   */
  errorsAgainst(parent: SchemaNode, keyword: Combinator, index: number | null, data: unknown): ErrorObject[];
}

interface RawIssue {
  pointer: string;
  message: string;
}

// Each level descends into a strictly smaller schema, so this only guards against surprises.
const maxDepth = 12;

/**
 * Turns Ajv's errors (collected with `allErrors` and `verbose`) into issues a person can act on.
 * A failed oneOf/anyOf otherwise reports every variant's errors; instead, the variant the data
 * evidently means is chosen and only its errors are reported.
 */
export function explainErrors(
  errors: readonly ErrorObject[],
  data: unknown,
  narrowing: VariantNarrowing,
): SchemaIssue[] {
  const raw = explainAt(errors, narrowing, 0);
  const seen = new Set<string>();
  const issues: SchemaIssue[] = [];
  for (const { pointer, message } of raw) {
    const segments = pointerSegments(pointer, data);
    const issue = { path: jsonPath(segments), pointer: jsonPointer(segments), message };
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

function explainAt(errors: readonly ErrorObject[], narrowing: VariantNarrowing, depth: number): RawIssue[] {
  const chunks: RawIssue[][] = [];
  // Ajv reports a combinator's variant errors just before the combinator's own error, so walking
  // backwards finds the combinator first and can skip its block.
  let i = errors.length - 1;
  while (i >= 0) {
    const error = errors[i]!;
    if (isCombinator(error.keyword) && isNode(error.parentSchema) && depth < maxDepth) {
      let start = i;
      while (start > 0 && isWithin(errors[start - 1]!.instancePath, error.instancePath)) start--;
      chunks.push(explainVariants(error, error.keyword, error.parentSchema, narrowing, depth));
      i = start - 1;
    } else {
      const issue = describe(error);
      if (issue) chunks.push([issue]);
      i--;
    }
  }
  return chunks.reverse().flat();
}

function explainVariants(
  error: ErrorObject,
  keyword: Combinator,
  parent: SchemaNode,
  narrowing: VariantNarrowing,
  depth: number,
): RawIssue[] {
  const variants = Array.isArray(parent[keyword]) ? (parent[keyword] as unknown[]) : [];
  const passing: unknown = error.params['passingSchemas'];
  const alternatives = keyword === 'anyOf' ? requiredAlternatives(variants) : undefined;
  const rest = (index: number | null): RawIssue[] =>
    explainAt(narrowing.errorsAgainst(parent, keyword, index, error.data), narrowing, depth + 1);

  let issues: RawIssue[];
  if (Array.isArray(passing)) {
    issues = [{ pointer: '', message: ambiguity(variants, passing) }, ...rest(null)];
  } else if (alternatives) {
    issues = [{ pointer: '', message: `must have at least one of: ${alternatives.join(', ')}` }, ...rest(null)];
  } else {
    const choice = narrowing.choose(parent, keyword, error.data);
    issues =
      typeof choice === 'number'
        ? rest(choice)
        : [
            { pointer: pointerChild('', choice.name), message: `must be one of ${valueList(choice.allowed)}` },
            ...rest(null),
          ];
  }
  if (issues.length === 0) issues = [{ pointer: '', message: error.message ?? 'is invalid' }];
  return issues.map((issue) => ({ pointer: error.instancePath + issue.pointer, message: issue.message }));
}

/** What of an Ajv error (or Fastify's copy of one) says where it is. */
export type LocatedError = Pick<ErrorObject, 'keyword' | 'instancePath'> & { params: object };

/**
 * The JSON Pointer of the value an Ajv error is about: Ajv places a missing or unexpected property
 * at its parent, but a reader wants that property named.
 */
export function faultPointer(error: LocatedError): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return pointerChild(error.instancePath, String(params['missingProperty']));
  if (error.keyword === 'additionalProperties')
    return pointerChild(error.instancePath, String(params['additionalProperty']));
  return error.instancePath;
}

function describe(error: ErrorObject): RawIssue | undefined {
  const at = error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { pointer: faultPointer(error), message: 'is required' };
    case 'additionalProperties':
      return { pointer: faultPointer(error), message: 'is not an allowed property here' };
    case 'const':
      return { pointer: at, message: `must be ${JSON.stringify(params['allowedValue'])}` };
    case 'enum':
      return { pointer: at, message: `must be one of ${valueList(params['allowedValues'])}` };
    case 'format':
      return { pointer: at, message: `must be a valid ${String(params['format'])}` };
    case 'if':
      // The failing then/else branch has already reported what is wrong.
      return undefined;
    default:
      return { pointer: at, message: error.message ?? 'is invalid' };
  }
}

function ambiguity(variants: unknown[], passing: unknown[]): string {
  const labels = passing.map((index) => {
    const variant = variants[Number(index)];
    const required = isNode(variant) && Array.isArray(variant['required']) ? (variant['required'] as unknown[]) : [];
    return required.length > 0 ? `the one with ${required.join(', ')}` : `#${String(index)}`;
  });
  return `matches ${passing.length} variants where exactly one is allowed (${labels.join(' and ')})`;
}

/** The property names when every variant only says "has this property", as in "agents or brand_agent". */
function requiredAlternatives(variants: unknown[]): string[] | undefined {
  const names: string[] = [];
  for (const variant of variants) {
    if (!isNode(variant) || Object.keys(variant).some((key) => key !== 'required')) return undefined;
    const required = variant['required'];
    if (!Array.isArray(required) || required.length !== 1) return undefined;
    names.push(String(required[0]));
  }
  return names.length > 0 ? names : undefined;
}

function valueList(values: unknown): string {
  if (!Array.isArray(values)) return 'the allowed values';
  const shown = values.slice(0, 12).map((value) => JSON.stringify(value));
  return values.length > shown.length ? `${shown.join(', ')}, …` : shown.join(', ');
}

function isWithin(pointer: string, ancestor: string): boolean {
  return pointer === ancestor || pointer.startsWith(`${ancestor}/`);
}

function isCombinator(keyword: string): keyword is Combinator {
  return keyword === 'oneOf' || keyword === 'anyOf';
}

export function isNode(value: unknown): value is SchemaNode {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
