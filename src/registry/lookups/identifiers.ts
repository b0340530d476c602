import type { Identifier, IndexedProperty } from './index-records.ts';

/** Domains compare lowercase (as the crawler stores them); store and bundle ids as given. */
export function normalizeIdentifier(type: string, value: string): string {
  return type === 'domain' || type === 'subdomain' ? value.trim().toLowerCase() : value.trim();
}

/** A property's identifiers as compared, each once (two may normalize alike). Computed when needed: kept, they would cost a list per property. */
export function normalizedIdentifiers(property: IndexedProperty): Identifier[] {
  const out: Identifier[] = [];
  for (const { type, value } of property.identifiers) {
    const normalized = normalizeIdentifier(type, value);
    if (!out.some((i) => i.type === type && i.value === normalized)) out.push({ type, value: normalized });
  }
  return out;
}
