import { object } from '../parts.ts';

/**
 * A posted form's text fields: a field sent twice counts once, each cut at `maxLength` characters,
 * anything not text left out. The pages' forms take no body schema, which would make them take
 * JSON only (http/json-writes.ts); the form parser bounds the whole body.
 */
export function fields(body: unknown, maxLength: number): Record<string, string | undefined> {
  const form: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(object(body))) {
    const first = Array.isArray(value) ? (value as unknown[])[0] : value;
    if (typeof first === 'string') form[name] = first.slice(0, maxLength);
  }
  return form;
}
