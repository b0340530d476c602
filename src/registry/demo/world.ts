import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADAGENTS_SCHEMA_ID, BRAND_SCHEMA_ID, validateSchema } from '../../protocol/schemas.ts';
import { wellKnownUrl, type DocumentKind } from '../documents/well-known.ts';

/** One document of the demo world, as a crawl of `domain` would have found it at `url`. */
export interface WorldDocument {
  domain: string;
  url: string;
  document: Record<string, unknown>;
}

/**
 * The demo world, read from `world/`: each file is named after the domain that would serve it.
 * `earlier` holds older versions of some publishers' adagents.json, applied before the current
 * ones, so what they declared and the current file dropped is stale, as after a real re-crawl.
 */
export interface World {
  earlier: WorldDocument[];
  publishers: WorldDocument[];
  /** brand.json of houses (brands and sub-brands) and of operators (their agents and the properties they declare). */
  brands: WorldDocument[];
}

export const worldDir = join(import.meta.dirname, 'world');

const schemaOf: Record<DocumentKind, string> = { adagents_json: ADAGENTS_SCHEMA_ID, brand_json: BRAND_SCHEMA_ID };

/** Reads and validates the world, as the crawler validates what it fetches; a bad file throws, naming itself. */
export function loadWorld(dir = worldDir): World {
  return {
    earlier: documentsIn(join(dir, 'adagents-earlier'), 'adagents_json'),
    publishers: documentsIn(join(dir, 'adagents'), 'adagents_json'),
    brands: documentsIn(join(dir, 'brand'), 'brand_json'),
  };
}

function documentsIn(dir: string, kind: DocumentKind): WorldDocument[] {
  // Sorted, so every seed applies the files in the same order and writes the same feed.
  const files = readdirSync(dir).filter((name) => name.endsWith('.json')).sort();
  return files.map((name) => {
    const path = join(dir, name);
    const document: unknown = JSON.parse(readFileSync(path, 'utf8'));
    const validation = validateSchema(schemaOf[kind], document);
    if (!validation.valid) {
      const first = validation.errors[0]!;
      throw new Error(`demo world: ${path} does not match ${schemaOf[kind]}: ${first.path} ${first.message}`);
    }
    const domain = name.slice(0, -'.json'.length);
    return { domain, url: wellKnownUrl(domain, kind), document: document as Record<string, unknown> };
  });
}
