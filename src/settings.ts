/**
 * What every capability's `settings.ts` is written with. A capability says each of its settings
 * once: the environment variable, its default, its meaning, and the parser that checks its value at
 * start (so a typo fails loudly instead of running with a surprise). The README's rows and the
 * loader both derive from that, and the values' type from the parsers. It imports nothing, so a
 * settings file loads none of its capability's code, and `src/config.ts` assembles them all.
 */

export type Env = Record<string, string | undefined>;

/** Reads a setting's value and checks it; `name` is what an error calls the setting. */
export type Parse<T> = (value: string, name: string) => T;

/** One environment variable, said once. */
export interface Setting<T> {
  env: string;
  /** As it would be written. */
  default: string;
  /** As the README lists it. */
  meaning: string;
  parse: Parse<T>;
}

type Declared = Record<string, Setting<unknown>>;

/** The checked values of some declared settings, under the names the code uses. */
type Values<D extends Declared> = { -readonly [K in keyof D]: D[K] extends Setting<infer T> ? T : never };

/** A row of the README's table of settings. */
export interface Row {
  default: string;
  meaning: string;
}

/** Command-line flags, named as the values they override. */
export type Flags<D extends Declared> = { [K in keyof D]?: string | undefined };

/** The README's rows of some settings, by environment variable. */
export type Table<D extends Declared> = { readonly [K in keyof D as D[K]['env']]: Row };

/** Some settings of a capability, declared once. */
export interface Settings<D extends Declared, T> {
  table: Table<D>;
  /** Each value from its flag, else the environment when not blank, else the default; every one checked. */
  load(env: Env, flags?: Flags<D>): T;
}

/** What some settings load to: the type a capability's code is handed. */
export type Loaded<S extends { load(env: Env): unknown }> = ReturnType<S['load']>;

/**
 * Declares settings. `finish` turns the checked values into what the capability is handed, for
 * checks that take two settings together or values that nest.
 */
export function settings<const D extends Declared, T = Values<D>>(
  declared: D,
  finish?: (values: Values<D>) => T,
): Settings<D, T> {
  const entries = Object.entries(declared);
  return {
    table: Object.fromEntries(entries.map(([, s]) => [s.env, { default: s.default, meaning: s.meaning }])) as Table<D>,
    load(env, flags = {}) {
      const values = Object.fromEntries(
        entries.map(([key, s]) => [key, s.parse(flags[key] ?? nonEmpty(env[s.env]) ?? s.default, s.env)]),
      ) as Values<D>;
      return finish ? finish(values) : (values as T);
    },
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** The value as written. */
export const text: Parse<string> = (value) => value;

/** The value as written; a blank one is unset. */
export const optional: Parse<string | undefined> = nonEmpty;

export function integer(min: number, max: number): Parse<number> {
  return (value, name) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max)
      throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
    return n;
  };
}

/** A rate limit: requests per window (spec section 8). */
export const perWindow: Parse<number> = integer(1, 1e6);

export function fraction(min: number, max: number): Parse<number> {
  return (value, name) => {
    const n = Number(value);
    if (!/^\d+(\.\d+)?$/.test(value) || n < min || n > max)
      throw new ConfigError(`${name} must be a number from ${min} to ${max}, got "${value}"`);
    return n;
  };
}

export function oneOf<const T extends string>(allowed: readonly T[]): Parse<T> {
  return (value, name) => {
    if (!(allowed as readonly string[]).includes(value))
      throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${value}"`);
    return value as T;
  };
}

/** A `true` or `false` setting. */
export const flag: Parse<boolean> = (value, name) => oneOf(['true', 'false'])(value, name) === 'true';

/** A comma-separated list, blanks dropped. */
export const list: Parse<string[]> = (value) =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');

/** A secret made with `openssl rand -hex 32`, or none: refused when shorter than 32 characters. */
export const secret: Parse<string | undefined> = (value, name) => {
  const set = nonEmpty(value);
  if (set !== undefined && set.length < 32)
    throw new ConfigError(`${name} must be at least 32 characters; make one with \`openssl rand -hex 32\``);
  return set;
};
