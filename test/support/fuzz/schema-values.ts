import type { Random } from '../random.ts';
import type { Dictionary } from './dictionary.ts';

/** A JSON Schema as the OpenAPI document, the MCP tools lists and the published schemas write them. */
export type Schema = { [key: string]: unknown } | boolean;

export interface SchemaContext {
  random: Random;
  dictionary: Dictionary;
  /** Looks up a `$ref`: `#/components/schemas/X` of the document, or a published schema's `$id`. */
  resolve(ref: string): Schema | undefined;
  /** Per case: URLs that lead to the SSRF canary, so a fetch of one is seen. */
  canaryUrl: string;
}

const maxDepth = 9;

/**
 * A value the schema accepts, as far as a generator can tell (patterns it cannot read, rules
 * between fields it cannot see): the starting point that mutations then break. Prefers the
 * schema's own examples and values the server answered for a field of the same name.
 */
export function validValue(schema: Schema | undefined, ctx: SchemaContext, name = '', depth = 0): unknown {
  const s = normalize(schema, ctx);
  const { random } = ctx;
  if ('const' in s) return structuredClone(s['const']);
  if (Array.isArray(s['enum']) && s['enum'].length > 0) return structuredClone(random.pick(s['enum']));
  const examples = examplesOf(s);
  if (examples.length > 0 && random.chance(0.3)) return structuredClone(random.pick(examples));
  const variants = (s['anyOf'] ?? s['oneOf']) as Schema[] | undefined;
  if (Array.isArray(variants) && variants.length > 0) {
    // Properties beside the combinator still apply: they go with whichever variant is chosen.
    const { anyOf: _a, oneOf: _o, ...rest } = s;
    return validValue(merge(rest, normalize(random.pick(variants), ctx)), ctx, name, depth);
  }
  const type = typeOf(s, random);
  const known = depth > 0 || name ? ctx.dictionary.pick(random, name, (v) => fitsType(v, type)) : undefined;
  if (known !== undefined && random.chance(0.7)) return known;
  switch (type) {
    case 'object':
      return objectValue(s, ctx, depth);
    case 'array':
      return arrayValue(s, ctx, name, depth);
    case 'string':
      return stringValue(s, ctx, name);
    case 'integer':
    case 'number':
      return numberValue(s, random, type === 'integer');
    case 'boolean':
      return random.chance(0.5);
    case 'null':
      return null;
    default:
      return stringValue(s, ctx, name);
  }
}

/** The schema with `$ref` followed and `allOf` merged (to a depth), as a plain object. */
export function normalize(
  schema: Schema | undefined,
  ctx: Pick<SchemaContext, 'resolve'>,
  hops = 0,
): Record<string, unknown> {
  if (schema === undefined || typeof schema === 'boolean') return {};
  let s: Record<string, unknown> = schema;
  const ref = s['$ref'];
  if (typeof ref === 'string' && hops < 16) {
    const { $ref: _ref, ...rest } = s;
    s = merge(normalize(ctx.resolve(ref), ctx, hops + 1), rest);
  }
  const all = s['allOf'];
  if (Array.isArray(all) && hops < 16) {
    const { allOf: _all, ...rest } = s;
    s = all.reduce<Record<string, unknown>>((acc, part) => merge(acc, normalize(part as Schema, ctx, hops + 1)), rest);
  }
  return s;
}

/** Two schemas as one: properties and required lists joined, the second's other keywords winning. */
export function merge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a, ...b };
  if (a['properties'] || b['properties'])
    out['properties'] = { ...(a['properties'] as object), ...(b['properties'] as object) };
  if (a['required'] || b['required'])
    out['required'] = [...new Set([...((a['required'] as string[]) ?? []), ...((b['required'] as string[]) ?? [])])];
  return out;
}

export function examplesOf(s: Record<string, unknown>): unknown[] {
  const out: unknown[] = [];
  if (Array.isArray(s['examples'])) out.push(...s['examples']);
  if ('example' in s) out.push(s['example']);
  if ('default' in s) out.push(s['default']);
  return out;
}

/** The schema's type, or one guessed from its keywords; one of several when it lists several. */
export function typeOf(s: Record<string, unknown>, random: Random): string {
  const type = s['type'];
  if (typeof type === 'string') return type;
  if (Array.isArray(type) && type.length > 0) {
    const notNull = type.filter((t) => t !== 'null');
    return String(random.pick(notNull.length > 0 && random.chance(0.9) ? notNull : type));
  }
  if (s['properties'] || s['required'] || s['additionalProperties']) return 'object';
  if (s['items'] || s['prefixItems']) return 'array';
  if (s['minimum'] !== undefined || s['maximum'] !== undefined) return 'number';
  if (s['minLength'] !== undefined || s['pattern'] || s['format']) return 'string';
  return 'any';
}

function fitsType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return typeof value === 'string';
  }
}

function objectValue(s: Record<string, unknown>, ctx: SchemaContext, depth: number): Record<string, unknown> {
  const { random } = ctx;
  const properties = (s['properties'] ?? {}) as Record<string, Schema>;
  const required = new Set((s['required'] as string[] | undefined) ?? []);
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(properties)) {
    ctx.dictionary.names.add(key);
    if (!required.has(key) && (depth >= maxDepth || !random.chance(depth < 2 ? 0.55 : 0.35))) continue;
    out[key] = depth >= maxDepth + 3 ? minimal(normalize(child, ctx)) : validValue(child, ctx, key, depth + 1);
  }
  for (const key of required) if (!(key in out)) out[key] = validValue(undefined, ctx, key, depth + 1);
  const extra = s['additionalProperties'];
  if (Object.keys(properties).length === 0 && extra && typeof extra === 'object' && depth < maxDepth) {
    for (let i = random.int(0, 2); i > 0; i--) out[word(random)] = validValue(extra as Schema, ctx, '', depth + 1);
  }
  return out;
}

function arrayValue(s: Record<string, unknown>, ctx: SchemaContext, name: string, depth: number): unknown[] {
  const { random } = ctx;
  const min = typeof s['minItems'] === 'number' ? s['minItems'] : 0;
  const max = Math.min(typeof s['maxItems'] === 'number' ? s['maxItems'] : min + 3, min + 3);
  const count = depth >= maxDepth ? min : random.int(min, Math.max(min, max));
  const items = (s['items'] ?? {}) as Schema;
  const prefix = Array.isArray(s['prefixItems']) ? (s['prefixItems'] as Schema[]) : [];
  const itemName = name.endsWith('s') ? name.slice(0, -1) : name;
  return Array.from({ length: count }, (_, i) => validValue(prefix[i] ?? items, ctx, itemName, depth + 1));
}

function stringValue(s: Record<string, unknown>, ctx: SchemaContext, name: string): string {
  const { random } = ctx;
  const min = typeof s['minLength'] === 'number' ? s['minLength'] : 0;
  const max = typeof s['maxLength'] === 'number' ? s['maxLength'] : 64;
  const pattern = typeof s['pattern'] === 'string' ? s['pattern'] : undefined;
  const fits = (v: string) => v.length >= min && v.length <= max && (!pattern || matches(pattern, v));
  const format = s['format'];
  const byFormat = typeof format === 'string' ? formatted(format, ctx) : undefined;
  if (byFormat !== undefined && fits(byFormat)) return byFormat;
  const known = ctx.dictionary.pick(random, name, (v) => typeof v === 'string' && fits(v));
  if (known !== undefined) return known as string;
  const byName = named(name, ctx);
  if (byName !== undefined && fits(byName)) return byName;
  if (pattern) {
    const made = fromPattern(pattern, random);
    if (made !== undefined && fits(made)) return made;
  }
  let text = random.chance(0.5)
    ? word(random)
    : random.pick(['hello', 'coffee', 'recipes', 'news', 'sports fans', 'a b c', 'Summer sale']);
  while (text.length < min) text += word(random);
  return text.slice(0, Math.max(min, Math.min(max, text.length)));
}

function formatted(format: string, ctx: SchemaContext): string | undefined {
  const { random } = ctx;
  switch (format) {
    case 'uuid':
      return uuid(random);
    case 'date-time':
      return random.pick([
        '2031-01-01T00:00:00Z',
        '2031-06-30T12:00:00.000Z',
        '2020-01-01T00:00:00Z',
        new Date(Date.UTC(2031, random.int(0, 11), random.int(1, 28))).toISOString(),
      ]);
    case 'date':
      return random.pick(['2031-01-01', '2020-02-29', '2031-12-31']);
    case 'email':
      return random.pick(['buyer@example.com', 'ops@trailhead-coffee.example']);
    case 'uri':
    case 'url':
    case 'uri-reference':
      return urlValue(ctx);
    case 'hostname':
      return random.pick(['example.com', 'trailhead-coffee.example', 'publisher.example']);
    default:
      return undefined;
  }
}

/** A value a field of this name usually holds, when nothing better is known. */
function named(name: string, ctx: SchemaContext): string | undefined {
  const lower = name.toLowerCase();
  if (lower.includes('domain'))
    return ctx.random.pick(['example.com', 'trailhead-coffee.example', 'news.example', 'xn--bcher-kva.example']);
  if (lower.endsWith('url') || lower.endsWith('uri') || lower === 'href') return urlValue(ctx);
  if (lower === 'idempotency_key') return uuid(ctx.random);
  return undefined;
}

function urlValue(ctx: SchemaContext): string {
  const known = ctx.dictionary.pick(ctx.random, 'url', (v) => typeof v === 'string');
  return ctx.random.pick([
    ctx.canaryUrl,
    `${ctx.canaryUrl}/agent/mcp`,
    'https://agent.example/mcp',
    'https://publisher.example/.well-known/adagents.json',
    typeof known === 'string' ? known : 'https://example.com/',
  ]);
}

/** A string for the simple patterns schemas use: a character class repeated, a date, a colour. */
function fromPattern(pattern: string, random: Random): string | undefined {
  if (pattern === '^\\d{4}-\\d{2}-\\d{2}$') return '2031-01-01';
  if (pattern.startsWith('^#(')) return '#0b3d2e';
  const m = /^\^\[([^\]]+)\](\+|\*|\{(\d+)(?:,(\d*))?\})\$$/.exec(pattern);
  if (!m) return pattern === '\\S' ? word(random) : undefined;
  const chars = expandClass(m[1]!);
  if (chars.length === 0) return undefined;
  const min = m[3] !== undefined ? Number(m[3]) : m[2] === '+' ? 1 : 0;
  const max = m[4] !== undefined ? (m[4] === '' ? min + 8 : Number(m[4])) : m[3] !== undefined ? min : 12;
  const length = random.int(Math.max(min, 1), Math.max(min, Math.min(max, 12)));
  return Array.from({ length }, () => random.pick(chars)).join('');
}

function expandClass(body: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '\\' && body[i + 1] === 'd') {
      out.push(...'0123456789');
      i++;
    } else if (body[i + 1] === '-' && i + 2 < body.length) {
      for (let code = c.charCodeAt(0); code <= body.charCodeAt(i + 2); code++) out.push(String.fromCharCode(code));
      i += 2;
    } else out.push(c);
  }
  return out;
}

function matches(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return true;
  }
}

/** The smallest value of the schema's type. */
export function minimal(s: Record<string, unknown>): unknown {
  if ('const' in s) return s['const'];
  if (Array.isArray(s['enum']) && s['enum'].length > 0) return s['enum'][0];
  switch (s['type']) {
    case 'object':
      return {};
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return typeof s['minimum'] === 'number' ? s['minimum'] : 1;
    case 'boolean':
      return true;
    default:
      return 'x';
  }
}

function numberValue(s: Record<string, unknown>, random: Random, integer: boolean): number {
  const lo =
    typeof s['minimum'] === 'number'
      ? s['minimum']
      : typeof s['exclusiveMinimum'] === 'number'
        ? s['exclusiveMinimum'] + (integer ? 1 : 0.5)
        : 0;
  const hi =
    typeof s['maximum'] === 'number'
      ? s['maximum']
      : typeof s['exclusiveMaximum'] === 'number'
        ? s['exclusiveMaximum'] - (integer ? 1 : 0.5)
        : lo + 1000;
  const pick = random.pick([lo, hi, lo + (hi - lo) * random.next()]);
  return integer ? Math.min(Math.floor(hi), Math.max(Math.ceil(lo), Math.round(pick))) : Math.round(pick * 100) / 100;
}

export function uuid(random: Random): string {
  const hex = Array.from({ length: 32 }, () => random.int(0, 15).toString(16));
  hex[12] = '4';
  hex[16] = random.pick(['8', '9', 'a', 'b']);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function word(random: Random): string {
  return Array.from({ length: random.int(3, 10) }, () => random.pick([...'abcdefghijklmnopqrstuvwxyz'])).join('');
}
