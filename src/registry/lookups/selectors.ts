import { normalizeDomain } from '../../protocol/domain.ts';
import { ApError, type FieldIssue } from '../../protocol/errors.ts';
import { covers, normalizeIdentifier, type AuthorizationIndex } from './authorization-index.ts';
import type { Identifier, IndexedProperty } from './index-records.ts';
import type { ExpandBody } from './schemas.ts';

type RawSelector = ExpandBody['publisher_properties'][number];

/** A selector checked and read: a publisher's properties by rule, or properties given inline. */
export type Selector =
  | { selection_type: 'all'; publisher_domain: string }
  | { selection_type: 'by_id'; publisher_domain: string; property_ids: string[] }
  | { selection_type: 'by_tag'; publisher_domain: string; property_tags: string[] }
  | { selection_type: 'inline'; properties: Array<{ property_type: string; name: string; identifiers: Identifier[] }> };

/**
 * Checks each selector against the rules of its type (core/publisher-property-selector.json: a
 * domain always, `property_ids` for by_id, `property_tags` for by_tag; `properties` for inline),
 * refusing all the malformed ones at once, each named by its dotted path (as schema validation
 * names fields). Inline identifiers are normalized, so a domain given in capitals is the same one.
 */
export function readSelectors(raw: readonly RawSelector[], field = 'publisher_properties'): Selector[] {
  const issues: FieldIssue[] = [];
  const out: Selector[] = [];
  raw.forEach((s, i) => {
    const at = `${field}.${i}`;
    const problem = (name: string, message: string) => issues.push({ in: 'body', field: `${at}.${name}`, message });
    if (s.selection_type === 'inline') {
      if (!s.properties || s.properties.length === 0) return problem('properties', 'an inline selector lists its properties (at least one, each with identifiers)');
      out.push({
        selection_type: 'inline',
        properties: s.properties.map((p) => ({ property_type: p.property_type ?? 'unknown', name: p.name ?? '', identifiers: p.identifiers.map((i) => ({ type: i.type, value: normalizeIdentifier(i.type, i.value) })) })),
      });
      return;
    }
    if (s.publisher_domain === undefined) return problem('publisher_domain', `selection_type ${s.selection_type} names the publisher_domain whose adagents.json it selects from`);
    let domain: string;
    try {
      domain = normalizeDomain(s.publisher_domain, { field: `${at}.publisher_domain`, in: 'body' });
    } catch (err) {
      // The domain error's own detail, not its message, which already names the field.
      if (err instanceof ApError) return problem('publisher_domain', err.details?.[0]?.message ?? err.message);
      throw err;
    }
    if (s.selection_type === 'all') out.push({ selection_type: 'all', publisher_domain: domain });
    else if (s.selection_type === 'by_id') {
      if (!s.property_ids || s.property_ids.length === 0) return problem('property_ids', 'a by_id selector lists at least one property id');
      out.push({ selection_type: 'by_id', publisher_domain: domain, property_ids: s.property_ids });
    } else {
      if (!s.property_tags || s.property_tags.length === 0) return problem('property_tags', 'a by_tag selector lists at least one tag');
      out.push({ selection_type: 'by_tag', publisher_domain: domain, property_tags: s.property_tags });
    }
  });
  if (issues.length > 0) {
    throw new ApError('validation_failed', `Invalid ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}.`, { details: issues });
  }
  return out;
}

/** The catalog properties a publisher selector picks, in the publisher's order of ids; none for inline. */
export function selectedProperties(index: AuthorizationIndex, s: Selector): IndexedProperty[] {
  if (s.selection_type === 'inline') return [];
  const all = index.propertiesOfPublisher(s.publisher_domain);
  if (s.selection_type === 'all') return all;
  const coverage = {
    all: false,
    propertyIds: s.selection_type === 'by_id' ? new Set(s.property_ids) : null,
    tags: s.selection_type === 'by_tag' ? new Set(s.property_tags) : null,
    rids: null,
  };
  return all.filter((p) => covers(coverage, p));
}
