import { type CaseContext, pickCredential, type Target } from './cases.ts';
import { asParameter, encodeComponent } from './encode.ts';
import {
  deepValue,
  hostilePathSegments,
  hostileQueryTokens,
  hostileScalar,
  hostileStrings,
  hugeString,
  numericQueryTokens,
  sharpStrings,
} from './hostile.ts';
import { mutate } from './mutate.ts';
import { RawJson, writeJson } from './raw-json.ts';
import { normalize, validValue, word, type Schema } from './schema-values.ts';

/** An operation of the OpenAPI document, as much of it as a request needs. */
export interface Operation {
  method: string;
  /** The path template, e.g. `/api/registry/lookup/domain/{domain}`. */
  path: string;
  parameters: Parameter[];
  /** The JSON body's schema, when the operation declares one. */
  body: Schema | undefined;
  secured: boolean;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
  example?: unknown;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, Schema> };
}

const methods = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation of the document, in its order. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of methods) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      const parameters = ((op['parameters'] as Array<Record<string, unknown>> | undefined) ?? [])
        .filter((p) => p['in'] === 'path' || p['in'] === 'query' || p['in'] === 'header')
        .map((p) => ({
          name: String(p['name']),
          in: p['in'] as Parameter['in'],
          required: p['required'] === true || p['in'] === 'path',
          schema: (p['schema'] ?? {}) as Schema,
          ...('example' in p ? { example: p['example'] } : {}),
        }));
      const content = (op['requestBody'] as { content?: Record<string, { schema?: Schema }> } | undefined)?.content;
      const security = op['security'] as Array<Record<string, unknown>> | undefined;
      out.push({
        method: method.toUpperCase(),
        path,
        parameters,
        body: content?.['application/json']?.schema,
        secured: !!security?.length && security.every((s) => Object.keys(s).length > 0),
      });
    }
  }
  return out;
}

/** The target of one operation: a request made from its parameters and body schema, then broken. */
export function operationTarget(op: Operation): Target {
  return {
    id: `${op.method} ${op.path}`,
    make(ctx) {
      const { random } = ctx;
      const notes: string[] = [];
      const { credential, headers } = pickCredential(
        ctx,
        op.path.match(/^\/[^/]+\/(mcp|a2a|tasks)/) ? 'agent' : 'admin',
        op.secured,
      );
      const breakParams = random.chance(0.5);
      let path = op.path;
      const query: string[] = [];
      for (const p of op.parameters) {
        if (p.in === 'path') {
          const hostile = breakParams && random.chance(0.5);
          const value = hostile ? random.pick(hostilePathSegments) : encodeComponent(asParameter(paramValue(p, ctx)));
          if (hostile) notes.push(`path ${p.name}=${value.slice(0, 60)}`);
          path = path.replace(`{${p.name}}`, value);
        } else if (p.in === 'query') {
          if (!p.required && !random.chance(0.5)) continue;
          const value = paramValue(p, ctx);
          for (const item of Array.isArray(value) ? value : [value])
            query.push(`${encodeComponent(p.name)}=${encodeComponent(asParameter(item))}`);
        } else {
          if (!p.required && !random.chance(0.5)) continue;
          const value = asParameter(paramValue(p, ctx));
          if (headerSafe(value)) headers[p.name] = value;
        }
      }
      if (breakParams) breakQuery(op, query, ctx, notes);
      const url = query.length > 0 ? `${path}?${query.join('&')}` : path;
      const call = { kind: 'http' as const, method: op.method, path: url, headers };
      if (op.method === 'GET' || op.method === 'DELETE') {
        // A body where none is expected, now and then.
        if (op.method === 'DELETE' && random.chance(0.1))
          return {
            credential,
            call: {
              ...call,
              headers: { ...headers, 'content-type': 'application/json' },
              body: writeJson(hostileScalar(random)),
            },
            notes: [...notes, 'unexpected body'],
          };
        return { credential, call, notes };
      }
      const { body, contentType } = requestBody(op, ctx, notes);
      if (contentType !== undefined) headers['content-type'] = contentType;
      return { credential, call: { ...call, headers, ...(body !== undefined ? { body } : {}) }, notes };
    },
  };
}

function paramValue(p: Parameter, ctx: CaseContext): unknown {
  if (p.example !== undefined && ctx.random.chance(0.3)) return p.example;
  return validValue(p.schema, ctx, p.name);
}

/** Query parameters made hostile: Infinity, NaN, 1e999 and friends, NUL and broken percent-encoding, SQL, a parameter repeated, dropped or unknown. */
function breakQuery(op: Operation, query: string[], ctx: CaseContext, notes: string[]): void {
  const { random } = ctx;
  const params = op.parameters.filter((p) => p.in === 'query');
  for (let n = random.int(1, 2); n > 0; n--) {
    const param = params.length > 0 && random.chance(0.85) ? random.pick(params) : undefined;
    const name = param?.name ?? random.pick(['limit', 'offset', 'cursor', 'q', word(random), '__proto__', 'a[b]']);
    const type = param ? normalize(param.schema, ctx)['type'] : undefined;
    const numeric = type === 'integer' || type === 'number' || ['limit', 'offset'].includes(name);
    const roll = random.int(0, 9);
    if (roll <= 4) {
      const token = random.pick(numeric && random.chance(0.7) ? numericQueryTokens : hostileQueryTokens);
      setQuery(query, name, [token]);
      notes.push(`query ${name}=${token}`);
    } else if (roll <= 6) {
      const text = random.chance(0.8)
        ? random.pick(random.chance(0.4) ? sharpStrings : hostileStrings)
        : hugeString(random, random.pick([2000, 5000]));
      setQuery(query, name, [encodeComponent(text)]);
      notes.push(`query ${name}=${JSON.stringify(text).slice(0, 60)}`);
    } else if (roll === 7) {
      setQuery(query, name, ['1', random.pick(hostileQueryTokens)]);
      notes.push(`query ${name} repeated`);
    } else if (roll === 8) {
      setQuery(query, name, []);
      notes.push(`query ${name} dropped`);
    } else {
      query.push(encodeComponent(name));
      notes.push(`query ${name} without a value`);
    }
  }
}

function setQuery(query: string[], name: string, values: string[]): void {
  const key = encodeComponent(name);
  for (let i = query.length - 1; i >= 0; i--)
    if (query[i]!.startsWith(`${key}=`) || query[i] === key) query.splice(i, 1);
  for (const value of values) query.push(`${key}=${value}`);
}

/** A body made from the operation's schema and broken, or hostile as a whole: not JSON, empty, too deep, too large, of another media type. */
function requestBody(
  op: Operation,
  ctx: CaseContext,
  notes: string[],
): { body: string | undefined; contentType: string | undefined } {
  const { random } = ctx;
  const roll = random.next();
  let contentType: string | undefined = 'application/json';
  if (random.chance(0.06)) {
    contentType = random.pick([
      undefined,
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=utf-16',
      'application/json;charset=latin1',
      'application/jsonx',
      'APPLICATION/JSON',
    ]);
    notes.push(`content-type ${contentType ?? '(none)'}`);
  }
  if (roll < 0.12) {
    const whole = wholeBody(ctx);
    notes.push(whole.note);
    return { body: whole.body, contentType };
  }
  const valid = op.body ? validValue(op.body, ctx) : looseObject(ctx);
  if (roll < 0.22) {
    notes.push(op.body ? 'valid body' : 'body of known field names');
    return { body: writeJson(valid), contentType };
  }
  const broken = mutate(valid, { random, dictionary: ctx.dictionary, plain: false });
  notes.push(...broken.done);
  return { body: writeJson(broken.value), contentType };
}

/** An object of field names and values the server has used, for operations that declare no body schema. */
export function looseObject(ctx: CaseContext): Record<string, unknown> {
  const names = [...ctx.dictionary.names].sort();
  const out: Record<string, unknown> = {};
  for (let n = ctx.random.int(0, 4); n > 0 && names.length > 0; n--) {
    const name = ctx.random.pick(names);
    out[name] = ctx.dictionary.pick(ctx.random, name) ?? validValue(undefined, ctx, name);
  }
  return out;
}

function wholeBody(ctx: CaseContext): { body: string | undefined; note: string } {
  const { random } = ctx;
  switch (random.int(0, 11)) {
    case 0:
      return { body: undefined, note: 'no body' };
    case 1:
      return { body: '', note: 'empty body' };
    case 2:
      return {
        body: random.pick([
          '{',
          '{"a":',
          '[1,]',
          "{'a':1}",
          '{"a":1}}',
          'nul',
          '\u0000',
          '\ufeff{}',
          '{"a":"\\ud800"}',
          '{"a":"\\u0000"}',
          '{"a":01}',
          '{"a":NaN}',
          '{"a":Infinity}',
        ]),
        note: 'malformed JSON',
      };
    case 3:
      return { body: writeJson(random.pick<unknown>([null, [], 'x', 1, true, [{}]])), note: 'not an object' };
    case 4:
      return { body: writeJson(deepValue(random, random.pick([65, 1000, 50_000]))), note: 'deeply nested' };
    case 5: {
      // Just past the default body limit (1 MiB).
      return { body: `{"a":"${'a'.repeat(1_048_600)}"}`, note: 'oversized body' };
    }
    case 6:
      return {
        body: writeJson({ a: new RawJson('1e999'), b: new RawJson('-1e999'), limit: new RawJson('1e999') }),
        note: 'numbers beyond double',
      };
    case 7:
      return {
        body: '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":true}}}',
        note: 'prototype pollution',
      };
    case 8:
      return { body: writeJson(hostileScalar(random)), note: 'hostile scalar' };
    case 9:
      return { body: `[${Array.from({ length: 5000 }, () => '{}').join(',')}]`, note: 'large array' };
    case 10:
      return { body: 'a=1&b=2', note: 'form body' };
    default:
      return { body: writeJson({ [random.pick(hostileStrings)]: random.pick(hostileStrings) }), note: 'hostile key' };
  }
}

function headerSafe(value: string): boolean {
  // A client cannot send control characters or non-Latin-1 in a header; those stay out.
  return /^[\t\x20-\x7e\x80-\xff]*$/.test(value) && value.length < 16_000;
}
