/** Defensive reads of parsed JSON whose shape was checked elsewhere, or not at all. */

export type JsonObject = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The objects of an array; nothing when it is not one. */
export function records(value: unknown): JsonObject[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

/** The strings of an array; nothing when it is not one. */
export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The items of an array, whatever they are; nothing when it is not one. */
export function items(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** `text` parsed, or undefined when it is not JSON: for answers that may be anything. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
