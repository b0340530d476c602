/**
 * What every capability's `settings.ts` is written with: the declaration of a setting, the reader
 * that applies flags over the environment over defaults, and the parsers that check a value at
 * start (so a typo fails loudly instead of running with a surprise). It imports nothing, so a
 * settings file loads none of its capability's code, and `src/config.ts` assembles them all.
 */

/** One environment variable: its default (as it would be written) and its meaning, as the README lists it. */
export interface Setting {
  default: string;
  meaning: string;
}

export type Env = Record<string, string | undefined>;

/** Reads a declared setting: a command-line flag, else the environment when not blank, else the default. */
export type Read<Name extends string> = (name: Name, flag?: string) => string;

export function reader<S extends Record<string, Setting>>(settings: S, env: Env): Read<keyof S & string> {
  return (name, flag) => flag ?? nonEmpty(env[name]) ?? settings[name]!.default;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function integer(name: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
  return n;
}

export function fraction(name: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || n < min || n > max)
    throw new ConfigError(`${name} must be a number from ${min} to ${max}, got "${value}"`);
  return n;
}

export function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
}

/** A `true` or `false` setting. */
export function flag(name: string, value: string): boolean {
  return oneOf(name, value, ['true', 'false']) === 'true';
}

/** A comma-separated list, blanks dropped. */
export function list(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** A secret made with `openssl rand -hex 32`: refused when shorter than 32 characters. */
export function secret(name: string, value: string | undefined): string | undefined {
  if (value !== undefined && value.length < 32)
    throw new ConfigError(`${name} must be at least 32 characters; make one with \`openssl rand -hex 32\``);
  return value;
}
