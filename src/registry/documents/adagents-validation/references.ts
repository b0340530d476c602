import { isRecord, items as arrayOf, strings } from '../../../protocol/json-values.ts';
import type { FindingCode, Report } from './findings.ts';

/** Selections by id or tag that name nothing declared in this file select nothing; declarations made twice make them ambiguous. */
export function checkReferences(doc: Record<string, unknown>, agents: unknown[], report: Report): void {
  const properties = arrayOf(doc['properties']);
  const placements = arrayOf(doc['placements']);
  const signals = arrayOf(doc['signals']);

  const propertyIds = declaredIds(properties, 'property_id', 'properties', 'duplicate_property_id', report);
  const placementIds = declaredIds(placements, 'placement_id', 'placements', 'duplicate_placement_id', report);
  const signalIds = declaredIds(signals, 'id', 'signals', 'duplicate_signal_id', report);
  checkIdentifiers(properties, report);

  const checks: [string, Set<string>, FindingCode, (name: string) => string][] = [
    ['property_ids', propertyIds, 'unknown_property_id', (id) => `no property in this file has property_id "${id}"`],
    [
      'property_tags',
      tagsOf(properties),
      'unknown_property_tag',
      (tag) => `no property in this file has the tag "${tag}", so it selects nothing`,
    ],
    [
      'placement_ids',
      placementIds,
      'unknown_placement_id',
      (id) => `no placement in this file has placement_id "${id}"`,
    ],
    [
      'placement_tags',
      tagsOf(placements),
      'unknown_placement_tag',
      (tag) => `no placement in this file has the tag "${tag}", so it selects nothing`,
    ],
    ['signal_ids', signalIds, 'unknown_signal_id', (id) => `no signal in this file has id "${id}"`],
    [
      'signal_tags',
      tagsOf(signals),
      'unknown_signal_tag',
      (tag) => `no signal in this file has the tag "${tag}", so it selects nothing`,
    ],
  ];
  const selectors: [string, unknown[]][] = [
    ['authorized_agents', agents],
    ['placements', placements],
  ];
  for (const [list, entries] of selectors) {
    entries.forEach((entry, index) => {
      if (!isRecord(entry)) return;
      for (const [field, declared, code, message] of checks) {
        arrayOf(entry[field]).forEach((name, position) => {
          if (typeof name === 'string' && !declared.has(name))
            report(code, [list, index, field, position], message(name));
        });
      }
    });
  }
}

function declaredIds(
  entries: unknown[],
  field: string,
  list: string,
  duplicateCode: FindingCode,
  report: Report,
): Set<string> {
  const ids = new Set<string>();
  entries.forEach((entry, index) => {
    const id = isRecord(entry) ? entry[field] : undefined;
    if (typeof id !== 'string') return;
    if (ids.has(id))
      report(
        duplicateCode,
        [list, index, field],
        `"${id}" is declared more than once; selections by it become ambiguous`,
      );
    ids.add(id);
  });
  return ids;
}

// Domains compare case-insensitively, as the registry's lookups do; other identifiers exactly.
const domainTypes = new Set(['domain', 'subdomain']);

function checkIdentifiers(properties: unknown[], report: Report): void {
  const first = new Map<string, string>();
  properties.forEach((property, index) => {
    if (!isRecord(property)) return;
    arrayOf(property['identifiers']).forEach((identifier, position) => {
      if (!isRecord(identifier) || typeof identifier['type'] !== 'string' || typeof identifier['value'] !== 'string')
        return;
      const { type, value } = identifier;
      const key = `${type}\u0000${domainTypes.has(type) ? value.toLowerCase() : value}`;
      const where = `properties[${index}]`;
      const earlier = first.get(key);
      if (earlier === undefined) first.set(key, where);
      else
        report(
          'duplicate_identifier',
          ['properties', index, 'identifiers', position],
          `${type} "${value}" is already declared by ${earlier === where ? 'this property' : `$.${earlier}`}; lookups by it become ambiguous`,
        );
    });
  });
}

function tagsOf(entries: unknown[]): Set<string> {
  return new Set(entries.flatMap((entry) => (isRecord(entry) ? strings(entry['tags']) : [])));
}
