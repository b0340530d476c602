import { normalizeDomain } from '../../protocol/domain.ts';
import { ApError, type FieldIssue } from '../../protocol/errors.ts';
import type { AuthorizationIndex } from './authorization-index.ts';
import { covers } from './coverage.ts';
import { normalizeIdentifier } from './identifiers.ts';
import type { Identifier, IndexedProperty } from './index-records.ts';
import type { ExpandBody } from './schemas/index.ts';

type RawSelector = ExpandBody['publisher_properties'][number];

/**
 * A selector checked and read: a publisher's properties by rule (only those of `property_types`
 * when it names some), or properties given inline.
 */
export type Selector =
  | { selection_type: 'all'; publisher_domain: string; property_types: ReadonlySet<string> | null }
  | {
      selection_type: 'by_id';
      publisher_domain: string;
      property_ids: string[];
      property_types: ReadonlySet<string> | null;
    }
  | {
      selection_type: 'by_tag';
      publisher_domain: string;
      property_tags: string[];
      property_types: ReadonlySet<string> | null;
    }
  | { selection_type: 'inline'; properties: Array<{ property_type: string; name: string; identifiers: Identifier[] }> };

/**
 * Checks each selector against the rules of its type (core/publisher-property-selector.json: a
 * domain always, `property_ids` for by_id, `property_tags` for by_tag; `properties` for inline),
 * refusing all the malformed ones at once, each named by its dotted path (as schema validation
 * names fields). Inline identifiers are normalized, so a domain given in capitals is the same one.
 * The protocol's registry client sends no selection_type and says `tags`: its selector is by_id
 * when it lists property_ids, by_tag when it lists tags, else all.
 */
export function readSelectors(raw: readonly RawSelector[], field = 'publisher_properties'): Selector[] {
  const issues: FieldIssue[] = [];
  const out: Selector[] = [];
  raw.forEach((s, i) => {
    const at = `${field}.${i}`;
    const problem = (name: string, message: string) => issues.push({ in: 'body', field: `${at}.${name}`, message });
    if (s.tags !== undefined && s.property_tags !== undefined)
      return problem('tags', 'tags and property_tags are one field; give one');
    const tags = s.property_tags ?? s.tags;
    const tagsField = s.property_tags !== undefined ? 'property_tags' : s.tags !== undefined ? 'tags' : 'property_tags';
    let type = s.selection_type;
    if (type === undefined) {
      if (s.properties !== undefined)
        return problem('selection_type', 'a selector listing its properties inline says selection_type inline');
      if (s.property_ids !== undefined && tags !== undefined)
        return problem(tagsField, 'without a selection_type, a selector lists property_ids or tags, not both');
      type = s.property_ids !== undefined ? 'by_id' : tags !== undefined ? 'by_tag' : 'all';
    }
    if (type === 'inline') {
      if (s.property_types !== undefined)
        return problem(
          'property_types',
          'property_types picks among a publisher’s properties; an inline selector lists its own',
        );
      if (!s.properties || s.properties.length === 0)
        return problem('properties', 'an inline selector lists its properties (at least one, each with identifiers)');
      out.push({
        selection_type: 'inline',
        properties: s.properties.map((p) => ({
          property_type: p.property_type ?? 'unknown',
          name: p.name ?? '',
          identifiers: p.identifiers.map((i) => ({ type: i.type, value: normalizeIdentifier(i.type, i.value) })),
        })),
      });
      return;
    }
    if (s.publisher_domain === undefined)
      return problem(
        'publisher_domain',
        `selection_type ${type} names the publisher_domain whose adagents.json it selects from`,
      );
    let domain: string;
    try {
      domain = normalizeDomain(s.publisher_domain, { field: `${at}.publisher_domain`, in: 'body' });
    } catch (err) {
      // The domain error's own detail, not its message, which already names the field.
      if (err instanceof ApError) return problem('publisher_domain', err.details?.[0]?.message ?? err.message);
      throw err;
    }
    if (s.property_types !== undefined && s.property_types.length === 0)
      return problem('property_types', 'lists at least one property type, or is left out');
    const property_types = s.property_types === undefined ? null : new Set(s.property_types);
    if (type === 'all') out.push({ selection_type: 'all', publisher_domain: domain, property_types });
    else if (type === 'by_id') {
      if (!s.property_ids || s.property_ids.length === 0)
        return problem('property_ids', 'a by_id selector lists at least one property id');
      out.push({ selection_type: 'by_id', publisher_domain: domain, property_ids: s.property_ids, property_types });
    } else {
      if (!tags || tags.length === 0) return problem(tagsField, 'a by_tag selector lists at least one tag');
      out.push({ selection_type: 'by_tag', publisher_domain: domain, property_tags: tags, property_types });
    }
  });
  if (issues.length > 0) {
    throw new ApError('validation_failed', `Invalid ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}.`, {
      details: issues,
    });
  }
  return out;
}

/** The catalog properties a publisher selector picks, in the publisher's order of ids; none for inline. */
export function selectedProperties(index: AuthorizationIndex, s: Selector): IndexedProperty[] {
  if (s.selection_type === 'inline') return [];
  const published = index.propertiesOfPublisher(s.publisher_domain);
  const all = s.property_types === null ? published : published.filter((p) => ofType(s, p));
  if (s.selection_type === 'all') return all;
  const coverage = {
    all: false,
    propertyIds: s.selection_type === 'by_id' ? new Set(s.property_ids) : null,
    tags: s.selection_type === 'by_tag' ? new Set(s.property_tags) : null,
    rids: null,
  };
  return all.filter((p) => covers(coverage, p));
}

/** Whether a publisher selector's `property_types` (if any) admit the property. */
export function ofType(s: Exclude<Selector, { selection_type: 'inline' }>, property: IndexedProperty): boolean {
  return s.property_types === null || s.property_types.has(property.type);
}
