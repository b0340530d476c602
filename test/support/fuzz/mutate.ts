import type { Random } from '../random.ts';
import type { Dictionary } from './dictionary.ts';
import { deepValue, hostileNumber, hostileScalar, hostileStrings, hugeString, sharpStrings } from './hostile.ts';
import { DuplicateKeys, RawJson } from './raw-json.ts';
import { word } from './schema-values.ts';

type Path = ReadonlyArray<string | number>;

/** What a mutation may need besides the value: the case's randomness and the values the server answered. */
export interface MutationContext {
  random: Random;
  dictionary: Dictionary;
  /** Whether the value goes through an SDK client (plain JavaScript: no raw tokens, bounded depth). */
  plain: boolean;
}

/**
 * The value with one to three things broken: a field of the wrong type, removed, added, made huge,
 * deep or hostile (NUL, lone surrogates, SQL, path fragments, ±Infinity), or swapped for another
 * entity's id. Returns the new value and what was done, for the case's description.
 */
export function mutate(value: unknown, ctx: MutationContext): { value: unknown; done: string[] } {
  let current = structuredCloneLoose(value);
  const done: string[] = [];
  for (let n = ctx.random.int(1, 3); n > 0; n--) {
    const paths = pathsOf(current);
    // A quarter of the time the break goes into a string the schema asked for: NUL, a lone
    // surrogate, SQL or a path where real text was expected reaches furthest into the code.
    const strings = paths.filter((p) => typeof get(current, p) === 'string');
    if (strings.length > 0 && ctx.random.chance(0.25)) {
      const path = ctx.random.pick(strings);
      const text = get(current, path) as string;
      const sharp = ctx.random.pick(sharpStrings);
      current = set(current, path, ctx.random.chance(0.5) ? sharp : `${text}${sharp}`);
      done.push(`${JSON.stringify(sharp)} into the string at ${path.join('.') || '(root)'}`);
      continue;
    }
    const path = ctx.random.pick(paths);
    const [next, what] = mutateAt(current, path, ctx);
    current = next;
    done.push(`${what} at ${path.length ? path.join('.') : '(root)'}`);
  }
  return { value: current, done };
}

function mutateAt(root: unknown, path: Path, ctx: MutationContext): [unknown, string] {
  const { random } = ctx;
  const target = get(root, path);
  const isObject =
    target !== null &&
    typeof target === 'object' &&
    !Array.isArray(target) &&
    !(target instanceof RawJson) &&
    !(target instanceof DuplicateKeys);
  const choice = random.int(0, isObject ? 11 : 8);
  switch (choice) {
    case 0:
    case 1:
      return [set(root, path, hostileScalar(random)), 'hostile value'];
    case 2:
      return [set(root, path, wrongType(target, random)), 'wrong type'];
    case 3:
      return [
        set(
          root,
          path,
          ctx.plain ? random.pick<unknown>([Infinity, -Infinity, NaN, -0, 1e308]) : hostileNumber(random),
        ),
        'edge number',
      ];
    case 4:
      return [
        set(root, path, deepValue(random, random.pick(ctx.plain ? [65, 300, 1000] : [65, 300, 1000, 20_000]))),
        'deep value',
      ];
    case 5:
      return [set(root, path, huge(random)), 'huge value'];
    case 6: {
      const other = ctx.dictionary.pick(random, random.pick([...ctx.dictionary.names].sort()) || 'id');
      return [set(root, path, other ?? random.pick(hostileStrings)), 'another field’s value'];
    }
    case 7:
      return path.length > 0
        ? [remove(root, path), 'removed']
        : [set(root, path, hostileScalar(random)), 'hostile value'];
    case 8:
      return [
        set(root, path, typeof target === 'string' ? target + random.pick(hostileStrings) : hostileScalar(random)),
        'appended',
      ];
    case 9:
    case 10: {
      const key = random.chance(0.5)
        ? random.pick([...ctx.dictionary.names].sort().concat(word(random)))
        : random.pick(['', '__proto__', 'constructor', '$where', 'a'.repeat(1000), '\u0000', '\ud800', 'x.y', '../x']);
      return [set(root, [...path, key], hostileScalar(random)), `extra field ${JSON.stringify(key).slice(0, 40)}`];
    }
    default: {
      if (ctx.plain) return [set(root, path, {}), 'emptied'];
      const entries = Object.entries(target as Record<string, unknown>);
      const [key, v] = entries.length > 0 ? random.pick(entries) : ['a', 1];
      return [
        set(root, path, new DuplicateKeys([...entries, [key, hostileScalar(random)], [key, v]])),
        `duplicate key ${key}`,
      ];
    }
  }
}

function huge(random: Random): unknown {
  switch (random.int(0, 3)) {
    case 0:
      return hugeString(random, random.pick([10_000, 100_000, 400_000]));
    case 1:
      return Array.from({ length: random.pick([1000, 20_000]) }, (_, i) => random.pick<unknown>([i, 'x', {}, null]));
    case 2:
      return Object.fromEntries(Array.from({ length: random.pick([1000, 10_000]) }, (_, i) => [`k${i}`, i]));
    default:
      return Array.from({ length: 200 }, () => hugeString(random, 1000));
  }
}

function wrongType(value: unknown, random: Random): unknown {
  const options: unknown[] = [];
  if (typeof value !== 'string') options.push(random.pick(['x', '1', 'true', '{}']));
  if (typeof value !== 'number') options.push(random.pick([1, 0, -1, 1.5]));
  if (typeof value !== 'boolean') options.push(random.chance(0.5));
  if (value !== null) options.push(null);
  if (!Array.isArray(value)) options.push(value === undefined ? [] : [value]);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) options.push({ value });
  return random.pick(options);
}

/** Every path in the value (the root included), up to a bound, not into raw tokens. */
export function pathsOf(root: unknown, limit = 400): Path[] {
  const out: Path[] = [];
  const queue: Array<{ path: Path; value: unknown }> = [{ path: [], value: root }];
  while (queue.length > 0 && out.length < limit) {
    const { path, value } = queue.shift()!;
    out.push(path);
    if (path.length > 12 || value instanceof RawJson || value instanceof DuplicateKeys) continue;
    if (Array.isArray(value))
      value.slice(0, 20).forEach((child, i) => queue.push({ path: [...path, i], value: child }));
    else if (value !== null && typeof value === 'object')
      for (const [key, child] of Object.entries(value)) queue.push({ path: [...path, key], value: child });
  }
  return out;
}

function get(root: unknown, path: Path): unknown {
  let v = root;
  for (const step of path) v = (v as Record<string | number, unknown> | undefined)?.[step];
  return v;
}

/** The root with the value at `path` replaced (parents made as needed; the root itself when the path is empty). */
function set(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const parent = get(root, path.slice(0, -1));
  const last = path[path.length - 1]!;
  if (parent === null || typeof parent !== 'object' || parent instanceof RawJson || parent instanceof DuplicateKeys)
    return set(root, path.slice(0, -1), { [last]: value });
  Object.defineProperty(parent, last, { value, enumerable: true, writable: true, configurable: true });
  return root;
}

function remove(root: unknown, path: Path): unknown {
  const parent = get(root, path.slice(0, -1));
  const last = path[path.length - 1]!;
  if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
  else if (parent && typeof parent === 'object') delete (parent as Record<string | number, unknown>)[last];
  return root;
}

/** A copy that keeps raw tokens as they are (structuredClone would turn them into plain objects). */
function structuredCloneLoose(value: unknown): unknown {
  if (value instanceof RawJson || value instanceof DuplicateKeys) return value;
  if (Array.isArray(value)) return value.map(structuredCloneLoose);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      Object.defineProperty(out, k, {
        value: structuredCloneLoose(v),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  return value;
}
