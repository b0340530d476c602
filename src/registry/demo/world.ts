import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADAGENTS_SCHEMA_ID, BRAND_SCHEMA_ID, validateSchema } from '../../protocol/schemas.ts';

const POLICY_ENTRY_SCHEMA_ID = '/schemas/3.0.6/governance/policy-entry.json';
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
  /**
   * The registry's own policies (governance/policy-entry.json, each file named after its
   * policy_id), and earlier versions of some, published first so they have a history to pin.
   */
  policies: Array<Record<string, unknown>>;
  earlierPolicies: Array<Record<string, unknown>>;
}

export const worldDir = join(import.meta.dirname, 'world');

const schemaOf: Record<DocumentKind, string> = { adagents_json: ADAGENTS_SCHEMA_ID, brand_json: BRAND_SCHEMA_ID };

/** Reads and validates the world, as the crawler validates what it fetches; a bad file throws, naming itself. */
export function loadWorld(dir = worldDir): World {
  return {
    earlier: documentsIn(join(dir, 'adagents-earlier'), 'adagents_json'),
    publishers: documentsIn(join(dir, 'adagents'), 'adagents_json'),
    brands: documentsIn(join(dir, 'brand'), 'brand_json'),
    policies: policiesIn(join(dir, 'policies')),
    earlierPolicies: policiesIn(join(dir, 'policies-earlier')),
  };
}

/** Policy entries, each valid against the published schema, with the metadata the registry requires of its own, in its file's name. */
function policiesIn(dir: string): Array<Record<string, unknown>> {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort();
  return files.map((name) => {
    const path = join(dir, name);
    const document = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    const validation = validateSchema(POLICY_ENTRY_SCHEMA_ID, document);
    const first = validation.errors[0];
    if (first)
      throw new Error(`demo world: ${path} does not match ${POLICY_ENTRY_SCHEMA_ID}: ${first.path} ${first.message}`);
    const missing = ['version', 'name', 'category'].filter((field) => document[field] === undefined);
    if (missing.length > 0)
      throw new Error(`demo world: ${path} lacks ${missing.join(', ')}, which the registry's own policies carry`);
    if (`${String(document['policy_id'])}.json` !== name)
      throw new Error(`demo world: ${path} holds policy ${String(document['policy_id'])}; name the file after it`);
    return document;
  });
}

function documentsIn(dir: string, kind: DocumentKind): WorldDocument[] {
  // Sorted, so every seed applies the files in the same order and writes the same feed.
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort();
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
